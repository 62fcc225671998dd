import type { DefinedJob, HandlerResolver, JobName } from '../src/queue/index.js'

export type { HandlerResolver }

/** Each job name loads a handler defined for that name: a handler filed under another does not compile. */
type HandlerLoaders = { readonly [N in JobName]: () => Promise<DefinedJob<N>> }

/**
 * One lazy loader per job name, so a command that runs one job loads one handler module and
 * `brain --version` loads none.
 */
export const handlerLoaders: HandlerLoaders = {
  sync: async () => (await import('./sync.js')).default,
  embed: async () => (await import('./embed.js')).default,
  extract: async () => (await import('./extract.js')).default,
  ingest_capture: async () => (await import('./ingest-capture.js')).default,
  'autopilot-cycle': async () => (await import('./autopilot-cycle.js')).default,
  shell: async () => (await import('./shell.js')).default,
  import: async () => (await import('./import.js')).default,
  capture: async () => (await import('./capture.js')).default,
  'switch-model': async () => (await import('./switch-model.js')).default,
  capture_transcript: async () => (await import('./capture-transcript.js')).default,
}

export const defaultResolver: HandlerResolver = (name) => handlerLoaders[name]()
