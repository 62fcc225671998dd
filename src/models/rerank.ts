import { DB_CONFIG_DEFAULTS } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { ProviderError, UsageError } from '../errors/index.js'
import { requireManifest, type ModelManifest } from './manifest.js'
import { scoreWithModel } from './onnx-model.js'

/** The registered cross-encoder `query` re-ranks with; setting it turns re-ranking on. */
export const RERANKER_KEY = 'search.reranker'
/** How many of the first results are re-scored (default 30). */
export const RERANK_TOP_KEY = 'search.rerank_top' as const
/** The most milliseconds re-scoring may take before the un-reranked order is returned (default 2000). */
export const RERANK_BUDGET_KEY = 'search.rerank_budget_ms' as const

const DEFAULT_RERANK_TOP = Number(DB_CONFIG_DEFAULTS[RERANK_TOP_KEY])
const DEFAULT_RERANK_BUDGET_MS = Number(DB_CONFIG_DEFAULTS[RERANK_BUDGET_KEY])

interface RerankSettings {
  manifest: ModelManifest
  top: number
  budgetMs: number
}

/**
 * The re-ranker to use for one call: `requested` true needs one configured, false turns it off,
 * undefined follows `search.reranker`. Null when there is none to use.
 */
export async function rerankSettings(db: SqlExecutor, home: string, requested: boolean | undefined): Promise<RerankSettings | null> {
  if (requested === false) return null
  const { rows } = await db.query<{ key: string; value: string }>('SELECT key, value FROM config WHERE key = ANY($1::text[])', [[RERANKER_KEY, RERANK_TOP_KEY, RERANK_BUDGET_KEY]])
  const value = (key: string): string | null => rows.find((r) => r.key === key)?.value ?? null
  const id = value(RERANKER_KEY)
  if (id === null) {
    if (requested !== true) return null
    throw new UsageError('reranker_not_configured', 'No re-ranker is configured.', { hint: 'brain models add <dir> --kind reranker, then brain config set search.reranker <id>' })
  }
  const manifest = await requireManifest(home, id)
  if (manifest.kind !== 'reranker') throw new ProviderError('model_not_reranker', `${id} is an ${manifest.kind}, not a re-ranker.`, { hint: 'brain models list' })
  return { manifest, top: positive(value(RERANK_TOP_KEY), DEFAULT_RERANK_TOP), budgetMs: positive(value(RERANK_BUDGET_KEY), DEFAULT_RERANK_BUDGET_MS) }
}

function positive(raw: string | null, fallback: number): number {
  const value = Number(raw)
  return raw !== null && Number.isInteger(value) && value > 0 ? value : fallback
}

type RerankOutcome = { kind: 'scored'; scores: number[] } | { kind: 'over_budget' } | { kind: 'failed'; message: string }

/**
 * Scores each chunk against the query within the budget. The model call cannot be interrupted:
 * past the budget its answer is not waited for, and an answer that came late is not used.
 */
export async function scoreChunks(db: SqlExecutor, settings: RerankSettings, query: string, chunkIds: readonly number[]): Promise<RerankOutcome> {
  const started = Date.now()
  const { rows } = await db.query<{ id: string | number; chunk_text: string }>('SELECT id, chunk_text FROM content_chunks WHERE id = ANY($1::bigint[])', [chunkIds.map(Number)])
  const texts = new Map(rows.map((r) => [Number(r.id), r.chunk_text]))
  const remaining = settings.budgetMs - (Date.now() - started)
  if (remaining <= 0) return { kind: 'over_budget' }
  let timer: NodeJS.Timeout | undefined
  const overBudget = new Promise<RerankOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'over_budget' }), remaining)
  })
  const scoring = scoreWithModel(
    settings.manifest,
    query,
    chunkIds.map((id) => texts.get(Number(id)) ?? ''),
  ).then(
    (scores): RerankOutcome => ({ kind: 'scored', scores }),
    (err: unknown): RerankOutcome => ({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
  )
  try {
    const outcome = await Promise.race([scoring, overBudget])
    // The runtime may hold the event loop while it computes, so the timer alone cannot tell.
    return outcome.kind === 'scored' && Date.now() - started > settings.budgetMs ? { kind: 'over_budget' } : outcome
  } finally {
    clearTimeout(timer)
  }
}
