/**
 * The job queue. Every mutating verb is a job: callers submit it and (usually) wait. pg-boss is
 * the engine on both database engines; `minion_jobs` is the record users see.
 *
 * submitAndWait: on the embedded engine the caller runs its own job inline; on the server engine
 * it waits for a live worker (heartbeat in minion_workers fresher than 15 s, serving the job's
 * name) and runs the job inline when none is alive. It resolves with the completed record and
 * rejects with the handler's error rebuilt as a BrainError of the same class, code and hint
 * (jobOfError(err) gives the dead record).
 *
 * The job catalogue (catalogue.ts) holds each job name's data schema and the error a refused
 * payload raises: submit checks data with it (JobData<N> at compile time, the schema at run
 * time, before anything is enqueued) and handlers receive the data it parsed. Callers outside
 * the queue read minion_jobs through the functions of sql/job-queries.ts, never by SQL.
 *
 * The queue owns its worker (worker.ts: the claim loop, pg-boss's runtime, the memory
 * watchdog) and the handler contract (handler.ts). It never imports workers/: the program's
 * entry point hands the handler registry in with registerHandlers.
 * May import: config, db, errors, util.
 */
export type { JobName, JobStatus, SubmitOptions, SubmitAndWaitOptions, JobRecord, JobDetail, JobProgress, Queue, QueueStats, JobCounts, ListFilter } from './types.js'
export { JOB_NAMES, JOB_STATUSES, isJobName, isJobStatus } from './types.js'
export { openQueue, type OpenQueueContext } from './facade.js'
export { rebuildJobError, jobOfError, JobTimeoutError, JobCancelledError, JobEvictedError, JobStalledError, WorkerShutdownError } from './errors.js'
export { DEFAULT_TIMINGS, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_STALLED, type QueueTimings } from './settings.js'
export { registerHandlers, defineJob, type HandlerResolver, type JobContext, type JobHandler, type JobDefinition, type DefinedJob } from './handler.js'
export { JOB_CATALOGUE, parseJobData, checkJobData, type JobData, type ParsedJobData, type DataProblem, type JobSpec } from './catalogue.js'
export { Worker, type WorkerOptions } from './worker.js'
export { runHousekeeping } from './housekeeping.js'
export { AUTOPILOT_PHASES, selectPhases, type PhaseName } from './autopilot-phases.js'
export { queueHealthCounts, findJobIdByKey, countJobsOf, type QueueHealthCounts, type CountJobsFilter } from './sql/job-queries.js'
