import { UsageError } from '../errors/index.js'

/**
 * The autopilot cycle's seven phases, always in this order:
 * 1. sync — import what changed in the brain directory (its source's bookmark);
 * 2. extract — derive links and facts from the pages sync touched;
 * 3. embed — embed chunks that have no embedding yet (`embed --stale`, data {mode: "stale"});
 * 4. reconcile-links — add the code ⇄ markdown citation links (`reconcile-links`);
 * 5. frontmatter-audit — read-only frontmatter scan of the sources (`frontmatter audit`);
 * 6. queue-housekeeping — pg-boss maintenance, stall rescue, forgetting dead workers;
 * 7. backup — an embedded brain's backup once per `backup.interval`, pruned to `backup.keep`.
 * Part of the `autopilot-cycle` job's data, so whoever submits one can check it.
 */
export const AUTOPILOT_PHASES = ['sync', 'extract', 'embed', 'reconcile-links', 'frontmatter-audit', 'queue-housekeeping', 'backup'] as const
export type PhaseName = (typeof AUTOPILOT_PHASES)[number]

function isPhaseName(value: string): value is PhaseName {
  return (AUTOPILOT_PHASES as readonly string[]).includes(value)
}

/** The phases a cycle runs: all of them, or the ones named in `data.phase` / `data.phases`. */
export function selectPhases(data: Record<string, unknown>): PhaseName[] {
  const raw = data.phases ?? (data.phase === undefined ? undefined : [data.phase])
  if (raw === undefined) return [...AUTOPILOT_PHASES]
  const names = Array.isArray(raw) ? raw : [raw]
  const unknown = names.filter((n) => typeof n !== 'string' || !isPhaseName(n))
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError('unknown_phase', `Unknown autopilot phase: ${unknown.map(String).join(', ') || '(none)'}.`, {
      hint: `Phases: ${AUTOPILOT_PHASES.join(', ')}.`,
    })
  }
  return AUTOPILOT_PHASES.filter((p) => names.includes(p))
}
