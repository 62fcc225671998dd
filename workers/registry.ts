import type { HandlerResolver, JobHandler } from '../src/queue/handler.js'
import type { JobName } from '../src/queue/types.js'

export type { HandlerResolver }
export type HandlerLoader = () => Promise<JobHandler>

/**
 * One lazy loader per job name, so a command that runs one job loads one handler module and
 * `brain --version` loads none.
 */
export const handlerLoaders: Record<JobName, HandlerLoader> = {
  sync: async () => (await import('./sync.js')).default,
  embed: async () => (await import('./embed.js')).default,
  extract: async () => (await import('./extract.js')).default,
  ingest_capture: async () => (await import('./ingest-capture.js')).default,
  'autopilot-cycle': async () => (await import('./autopilot-cycle.js')).default,
  shell: async () => (await import('./shell.js')).default,
  import: async () => (await import('./import.js')).default,
  capture: async () => (await import('./capture.js')).default,
}

/** Autopilot phases that are operations rather than job names. */
export const PHASE_ONLY = ['reconcile-links', 'frontmatter-audit'] as const
export type PhaseOnlyName = (typeof PHASE_ONLY)[number]

export const phaseLoaders: Record<PhaseOnlyName, HandlerLoader> = {
  'reconcile-links': async () => (await import('./reconcile-links.js')).default,
  'frontmatter-audit': async () => (await import('./frontmatter-audit.js')).default,
}

export const defaultResolver: HandlerResolver = (name) => handlerLoaders[name]()
