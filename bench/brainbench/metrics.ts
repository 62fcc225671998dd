/**
 * BrainBench metrics, re-implemented from the suite's documented definitions: know-to-ask failure
 * and false fire per gold turn, micro-averaged push precision and recall, write-back fidelity and
 * provenance per gold fact, continuity per writer/reader decision, source isolation per injected slug.
 */

export interface TurnGold {
  should_retrieve: boolean
  gold_slugs?: string[]
  acceptable_slugs?: string[]
}

export interface Tally {
  shouldRetrieve: number
  missed: number
  quiet: number
  falseFires: number
  injected: number
  injectedRelevant: number
  goldSlugs: number
  goldHit: number
  violations: number
  tokens: number
  turns: number
  wbTotal: number
  wbSurvived: number
  wbProvenance: number
  contTotal: number
  contHit: number
  failed: string[]
}

export function emptyTally(): Tally {
  return {
    shouldRetrieve: 0,
    missed: 0,
    quiet: 0,
    falseFires: 0,
    injected: 0,
    injectedRelevant: 0,
    goldSlugs: 0,
    goldHit: 0,
    violations: 0,
    tokens: 0,
    turns: 0,
    wbTotal: 0,
    wbSurvived: 0,
    wbProvenance: 0,
    contTotal: 0,
    contHit: 0,
    failed: [],
  }
}

export function scoreTurn(t: Tally, key: string, slugs: string[], tokens: number, foreign: number, gold: TurnGold | null): void {
  t.turns++
  t.tokens += tokens
  t.violations += foreign
  if (!gold) return
  const required = new Set(gold.gold_slugs ?? [])
  const ok = new Set([...required, ...(gold.acceptable_slugs ?? [])])
  t.injected += slugs.length
  t.injectedRelevant += slugs.filter((s) => ok.has(s)).length
  if (gold.should_retrieve) {
    t.shouldRetrieve++
    if (!slugs.some((s) => ok.has(s))) {
      t.missed++
      t.failed.push(`${key} (missed retrieve)`)
    }
    t.goldSlugs += required.size
    for (const s of required) {
      if (slugs.includes(s)) t.goldHit++
      else t.failed.push(`${key} (gold slug not pushed: ${s})`)
    }
  } else {
    t.quiet++
    if (slugs.length > 0) {
      t.falseFires++
      t.failed.push(`${key} (false fire: ${slugs.join(',')})`)
    }
  }
}

const ratio = (n: number, d: number, empty: number): number => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : empty)

export function summarise(t: Tally): Record<string, number> {
  return {
    know_to_ask_failure_rate: ratio(t.missed, t.shouldRetrieve, 0),
    false_fire_rate: ratio(t.falseFires, t.quiet, 0),
    push_precision: ratio(t.injectedRelevant, t.injected, 1),
    push_recall: ratio(t.goldHit, t.goldSlugs, 1),
    write_back_fidelity: ratio(t.wbSurvived, t.wbTotal, 1),
    provenance_accuracy: ratio(t.wbProvenance, t.wbSurvived, 1),
    continuity_rate: ratio(t.contHit, t.contTotal, 1),
    source_isolation_violations: t.violations,
    avg_injected_tokens: ratio(t.tokens, t.turns, 0),
  }
}
