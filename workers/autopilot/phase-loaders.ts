import type { JobHandler } from '../../src/queue/index.js'
import type { PhaseName } from '../../src/queue/index.js'

/**
 * The handler behind each autopilot phase that runs one, loaded when the phase runs. Kept apart
 * from the job registry, which itself loads the autopilot cycle: the cycle reads its phases
 * here, so neither module needs the other.
 */
export const phaseLoaders: Record<Exclude<PhaseName, 'queue-housekeeping'>, () => Promise<JobHandler>> = {
  sync: async () => (await import('../sync.js')).default,
  extract: async () => (await import('../extract.js')).default,
  embed: async () => (await import('../embed.js')).default,
  'reconcile-links': async () => (await import('../reconcile-links.js')).default,
  'frontmatter-audit': async () => (await import('../frontmatter-audit.js')).default,
  backup: async () => (await import('../backup.js')).default,
}
