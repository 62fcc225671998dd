import type { Config } from '../../config/index.js'
import type { Database } from '../../db/index.js'

/** What a phase gets: the home, the config, and the brain when one is configured. */
export interface MigrationContext {
  home: string
  config: Config
  /** Opens the brain for the length of `fn`; null when no brain is configured. */
  withBrain: (<T>(fn: (db: Database) => Promise<T>) => Promise<T>) | null
  /** Phases of one run hand results to later phases here (the audit to the host-work phase). */
  state: Map<string, unknown>
  now: () => Date
}

export interface PhaseReport {
  status: 'completed' | 'skipped'
  detail: string
  result?: unknown
}

export interface MigrationPhase {
  name: string
  run(ctx: MigrationContext): Promise<PhaseReport>
}

/**
 * The steps a release needs beyond SQL migrations, one orchestrator per version. An
 * orchestrator that changes page files must say so, and its phase must not run silently.
 */
export interface VersionOrchestrator {
  version: string
  summary: string
  /** Whether a phase rewrites page content (shown in the plan the user confirms). */
  rewritesPages: boolean
  phases: MigrationPhase[]
}

export function skippedWithoutBrain(): PhaseReport {
  return { status: 'skipped', detail: 'no brain is configured (run `brain init` to create one)' }
}
