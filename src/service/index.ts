/**
 * The resident brain service: one process per BRAIN_HOME that owns the embedded database,
 * keeps models and connections warm, runs a worker, and runs the commands thin clients forward
 * over its unix socket. Also the client side of that socket.
 * May import: config, db, errors, http, models, queue, releases/version, util.
 */
export { BrainService, readServiceState, type ServiceState, type CallOperation } from './server.js'
export { forward, connectOrStart, startServiceDetached, waitForExit, type ForwardOptions } from './client.js'
export { tryConnect, callOperationOn } from './call.js'
export type { CommandContext, BrainHost, AttachedWorker } from './command-context.js'
export type { ServiceStatus, OperationCall, CallOutcome, Reply, Hello, Identity, HookRequest, HookAnswer } from './protocol.js'
export type { AnswerHook } from './hook-exchange.js'
export type { ServicePaths } from './paths.js'
