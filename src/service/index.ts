/**
 * The resident brain service: one process per BRAIN_HOME that owns the embedded database,
 * keeps models and connections warm, runs a worker, and runs the commands thin clients forward
 * over its unix socket. Also the client side of that socket. May import every layer below the
 * surfaces; the CLI hands in the command runner, so this folder never imports src/cli.
 */
export { BrainService, readServiceState, type ServiceState } from './server.js'
export { forward, connectOrStart, tryConnect, type ForwardOptions } from './client.js'
export type { BrainContext, BrainHost, AttachedWorker } from './context.js'
