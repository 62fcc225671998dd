import type { Config } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { check, type DoctorCheck } from './types.js'

interface Coverage {
  total: number
  missing: number
  active: number
  other: number
}

/** How many chunks carry a vector of the active model; vector search ignores the others. */
export async function checkEmbeddings(db: SqlExecutor, config: Config): Promise<DoctorCheck> {
  const { activeEmbeddingProvider } = await import('../models/index.js')
  const model = (await activeEmbeddingProvider(db, config)).model
  const { rows } = await db.query<Coverage>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE embedding IS NULL)::int AS missing,
            count(*) FILTER (WHERE embedding IS NOT NULL AND model = $1)::int AS active,
            count(*) FILTER (WHERE embedding IS NOT NULL AND model IS DISTINCT FROM $1)::int AS other
     FROM content_chunks`,
    [model],
  )
  const c = rows[0] ?? { total: 0, missing: 0, active: 0, other: 0 }
  const provider = `${config.embedding.provider} model ${model}`
  if (c.total === 0) return check('embeddings', 'ok', `no chunks yet; active ${provider}`)
  if (c.missing === 0 && c.other === 0) return check('embeddings', 'ok', `all ${c.total} chunks embedded with the active ${provider}`)
  const parts = [`${c.active} of ${c.total} chunks embedded with the active ${provider}`]
  if (c.missing > 0) parts.push(`${c.missing} without an embedding (run \`brain embed --stale\`)`)
  if (c.other > 0) parts.push(`${c.other} embedded with another model, ignored by vector search (run \`brain embed --all\`)`)
  return check('embeddings', 'warn', parts.join('; '))
}
