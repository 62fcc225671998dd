import { readConfigValue } from '../src/config/index.js'
import type { Database } from '../src/db/index.js'
import { DEFAULT_TIMINGS, defineJob, runHousekeeping, selectPhases, type DefinedJob, type JobContext, type JobHandler, type PhaseName } from '../src/queue/index.js'
import { skipOrFail, touchedSlugs, type PhaseReport } from './autopilot/phases.js'
import { resolveSyncTarget, type SyncTarget } from './autopilot/sync-target.js'
import { phaseLoaders } from './autopilot/phase-loaders.js'

export interface AutopilotReport {
  phases: PhaseReport[]
  dir: string | null
  source_id: string | null
  /** Phases that failed (skipped ones are not failures). */
  failed: PhaseName[]
}

export interface AutopilotDeps {
  /** The handler behind a phase other than queue-housekeeping. */
  loadPhase(phase: Exclude<PhaseName, 'queue-housekeeping'>): Promise<JobHandler>
  housekeeping(db: Database): Promise<unknown>
}

const defaultDeps: AutopilotDeps = {
  loadPhase: (phase) => phaseLoaders[phase](),
  // History's retention runs with the queue's upkeep: both bound what a brain keeps of its past.
  housekeeping: async (db) => {
    const { pruneHistory } = await import('../src/history/index.js')
    const queue = await runHousekeeping(db, { timings: DEFAULT_TIMINGS })
    return { ...queue, history: await pruneHistory(db) }
  },
}

async function brainDir(ctx: JobContext): Promise<string | null> {
  if (typeof ctx.data.dir === 'string') return ctx.data.dir
  return readConfigValue(ctx.db, 'sync.repo_path').catch(() => null)
}

interface CycleState {
  phases: PhaseName[]
  target: SyncTarget | null
  /** Set when the sync phase completed in this run. */
  syncResult?: unknown
  syncCompleted: boolean
}

/** What a phase's handler receives; a string means "skip, for this reason". */
function phaseData(phase: PhaseName, state: CycleState): Record<string, unknown> | string {
  const sourceId = state.target?.sourceId
  switch (phase) {
    case 'sync':
      // Extraction inside sync is left to the extract phase only when that phase runs too.
      return { ...state.target?.data, noExtract: state.phases.includes('extract') }
    case 'extract': {
      const slugs = state.syncCompleted ? touchedSlugs(state.syncResult) : undefined
      if (slugs !== undefined && slugs.length === 0) return 'sync_touched_nothing'
      return { ...(slugs ? { slugs } : {}), ...(sourceId ? { sourceId } : {}) }
    }
    case 'embed':
      return { mode: 'stale' }
    case 'frontmatter-audit':
      return sourceId ? { sourceId } : {}
    case 'backup':
      // Asked for on its own (`brain dream --phase backup`), it backs up now whatever the interval.
      return { force: state.phases.length === 1 }
    default:
      return {}
  }
}

async function runPhase(deps: AutopilotDeps, ctx: JobContext, phase: PhaseName, index: number, state: CycleState): Promise<PhaseReport> {
  const started = Date.now()
  try {
    if (phase === 'queue-housekeeping') {
      return { phase, status: 'completed', result: await deps.housekeeping(ctx.db), duration_ms: Date.now() - started }
    }
    const data = phaseData(phase, state)
    if (typeof data === 'string') return { phase, status: 'skipped', reason: data, duration_ms: Date.now() - started }
    const handler = await deps.loadPhase(phase)
    const total = state.phases.length
    const result = await handler({
      ...ctx,
      data,
      progress: (p) => ctx.progress({ done: index, total, message: `${phase}: ${p.message ?? `${p.done}${p.total ? `/${p.total}` : ''}`}` }),
    })
    if (phase === 'sync') {
      state.syncResult = result
      state.syncCompleted = true
    }
    return { phase, status: 'completed', result, duration_ms: Date.now() - started }
  } catch (err) {
    return skipOrFail(phase, err, started)
  }
}

/**
 * One autopilot cycle: the phases in order, each through the same handler a job of that
 * name would run. A phase whose capability has not landed is recorded as skipped with its
 * reason. The abort signal is checked between phases, so a timed-out cycle stops after the
 * phase it is in.
 */
export function createAutopilotHandler(deps: AutopilotDeps = defaultDeps): DefinedJob<'autopilot-cycle'> {
  return defineJob({
    name: 'autopilot-cycle',
    run: async (ctx) => {
      const phases = selectPhases(ctx.data)
      const target = phases.includes('sync') || phases.includes('frontmatter-audit') ? await resolveSyncTarget(ctx.db, await brainDir(ctx)) : null
      const state: CycleState = { phases, target, syncCompleted: false }
      const reports: PhaseReport[] = []
      for (const [index, phase] of phases.entries()) {
        if (ctx.signal.aborted) {
          reports.push({ phase, status: 'skipped', reason: 'aborted', duration_ms: 0 })
          continue
        }
        ctx.progress({ done: index, total: phases.length, message: phase })
        const report = await runPhase(deps, ctx, phase, index, state)
        reports.push(report)
        if (report.status === 'failed') ctx.logger.warn(`autopilot phase ${phase} failed`, { error: report.error })
      }
      ctx.progress({ done: phases.length, total: phases.length, message: 'done' })
      if (ctx.signal.aborted) {
        ctx.logger.warn('autopilot cycle stopped early', { phases: reports.map((r) => `${r.phase}:${r.status}`) })
        throw ctx.signal.reason
      }
      const report: AutopilotReport = {
        phases: reports,
        dir: target?.dir ?? null,
        source_id: target?.sourceId ?? null,
        failed: reports.filter((r) => r.status === 'failed').map((r) => r.phase),
      }
      return report
    },
  })
}

const autopilotHandler: DefinedJob<'autopilot-cycle'> = createAutopilotHandler()
export default autopilotHandler
