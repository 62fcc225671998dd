import type { Config } from '../../config/index.js'
import { serializeError } from '../../errors/index.js'
import { appendLedgerEntry, completedVersions, readLedger, upgradePaths, type LedgerEntry, type PhaseOutcome } from './ledger.js'
import type { MigrationContext, VersionOrchestrator } from './orchestrator.js'
import { ORCHESTRATORS } from './orchestrators/index.js'
import { SCHEMA_VERSION_KEY } from './orchestrators/v0.38.0.0.js'
import { readUpdateState, writeUpdateState } from './update-state.js'
import { compareVersionText as compareVersions, currentVersion } from '../version/index.js'

export interface PlannedVersion {
  version: string
  summary: string
  rewritesPages: boolean
  phases: string[]
}

export interface VersionRun {
  version: string
  status: 'complete' | 'partial'
  phases: PhaseOutcome[]
  error?: LedgerEntry['error']
}

export interface ApplyResult {
  status: 'up_to_date' | 'applied' | 'failed'
  versions: VersionRun[]
  ledger: string
  pendingHostWork: string
}

/** Orchestrators up to this build's version that the ledger does not record as complete, oldest first. */
export function pendingOrchestrators(home: string, options: { version?: string; orchestrators?: readonly VersionOrchestrator[] } = {}): VersionOrchestrator[] {
  const done = completedVersions(readLedger(home).entries)
  const version = options.version ?? currentVersion()
  return (options.orchestrators ?? ORCHESTRATORS).filter((o) => compareVersions(o.version, version) <= 0 && !done.has(o.version))
}

export function describePlan(pending: readonly VersionOrchestrator[]): PlannedVersion[] {
  return pending.map((o) => ({ version: o.version, summary: o.summary, rewritesPages: o.rewritesPages, phases: o.phases.map((p) => p.name) }))
}

/**
 * Runs one version's phases in order. The ledger gets a `partial` entry first, so a run that
 * dies half-way is visible to `brain doctor`, and a `complete` entry once every phase has
 * completed or been skipped. A failing phase ends the run as `partial` with its error.
 */
export async function runOrchestrator(orchestrator: VersionOrchestrator, ctx: MigrationContext): Promise<VersionRun> {
  const { version } = orchestrator
  appendLedgerEntry(ctx.home, { version, status: 'partial', at: ctx.now().toISOString(), phases: [] })
  const phases: PhaseOutcome[] = []
  for (const phase of orchestrator.phases) {
    try {
      const report = await phase.run(ctx)
      phases.push({ name: phase.name, status: report.status, detail: report.detail })
    } catch (err) {
      const { class: errorClass, code, message } = serializeError(err)
      phases.push({ name: phase.name, status: 'failed', detail: message })
      const error = { class: errorClass, code, message }
      appendLedgerEntry(ctx.home, { version, status: 'partial', at: ctx.now().toISOString(), phases, error })
      return { version, status: 'partial', phases, error }
    }
  }
  appendLedgerEntry(ctx.home, { version, status: 'complete', at: ctx.now().toISOString(), phases })
  return { version, status: 'complete', phases }
}

export interface ApplyOptions {
  home: string
  config: Config
  withBrain: MigrationContext['withBrain']
  orchestrators?: readonly VersionOrchestrator[]
  version?: string
  now?: () => Date
}

/** Runs every pending version in order, stopping at the first that does not complete. */
export async function applyMigrations(options: ApplyOptions): Promise<ApplyResult> {
  const version = options.version ?? currentVersion()
  const pending = pendingOrchestrators(options.home, { version, orchestrators: options.orchestrators })
  const paths = upgradePaths(options.home)
  const ctx: MigrationContext = { home: options.home, config: options.config, withBrain: options.withBrain, state: new Map(), now: options.now ?? (() => new Date()) }
  const versions: VersionRun[] = []
  for (const orchestrator of pending) {
    const run = await runOrchestrator(orchestrator, ctx)
    versions.push(run)
    if (run.status !== 'complete') break
  }
  const previous = readUpdateState(options.home)
  const schema = ctx.state.get(SCHEMA_VERSION_KEY)
  writeUpdateState(options.home, {
    version,
    schema_version: typeof schema === 'number' ? schema : (previous?.schema_version ?? null),
    completed_versions: [...completedVersions(readLedger(options.home).entries)].sort(compareVersions),
    updated_at: ctx.now().toISOString(),
  })
  const failed = versions.some((v) => v.status !== 'complete')
  return { status: failed ? 'failed' : versions.length === 0 ? 'up_to_date' : 'applied', versions, ledger: paths.completed, pendingHostWork: paths.pendingHostWork }
}
