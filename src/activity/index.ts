/**
 * What the brain is doing, for operators: the supervisors' event files, the registered workers
 * and the HTTP request log, read the same way by every surface (CLI, MCP, the web app's API and
 * its live event stream). Owns reading only; the writers live with the supervisor, the queue and
 * the HTTP server.
 * May import: db, errors.
 */
export { supervisorEventFiles, readRecentEvents, EventFileTail, type SupervisorEventLine } from './supervisor-events.js'
export { listWorkers, type WorkerInfo } from './workers.js'
export { listRequests, type RequestLogRow } from './request-log.js'
