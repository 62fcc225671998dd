/**
 * The Okapi BM25 reference every run is judged against: whole documents (title and text), the
 * tokens and stems of PostgreSQL's 'english' text-search configuration (the same parser, stop
 * words and Snowball stemmer the brain indexes with, read through to_tsvector on the engine
 * under test), k1 = 0.9 and b = 0.4 (the usual BEIR baseline settings), and the idf
 * ln(1 + (N − df + 0.5) / (df + 0.5)). Computed here in TypeScript, not by the search code.
 */
import type { SqlExecutor } from '../../src/db/types.js'

export const REFERENCE_K1 = 0.9
export const REFERENCE_B = 0.4

export interface Bm25Index {
  rank(query: string, limit: number): Promise<string[]>
}

interface Posting {
  doc: number
  tf: number
}

async function termFrequencies(db: SqlExecutor, texts: readonly string[]): Promise<Array<Map<string, number>>> {
  const out = texts.map(() => new Map<string, number>())
  const batch = 200
  for (let start = 0; start < texts.length; start += batch) {
    const { rows } = await db.query<{ i: string; lexeme: string; tf: number }>(
      `SELECT x.i, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
       FROM unnest($1::text[]) WITH ORDINALITY AS x(t, i), unnest(to_tsvector('english', x.t)) AS u`,
      [texts.slice(start, start + batch)],
    )
    for (const row of rows) out[start + Number(row.i) - 1]!.set(row.lexeme, row.tf)
  }
  return out
}

export async function buildBm25Index(db: SqlExecutor, docs: ReadonlyArray<{ id: string; content: string }>): Promise<Bm25Index> {
  const tfs = await termFrequencies(
    db,
    docs.map((d) => d.content),
  )
  const lengths = tfs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0))
  const averageLength = Math.max(1, lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length))
  const postings = new Map<string, Posting[]>()
  tfs.forEach((tf, doc) => {
    for (const [lexeme, count] of tf) {
      const list = postings.get(lexeme) ?? []
      list.push({ doc, tf: count })
      postings.set(lexeme, list)
    }
  })
  const n = docs.length
  return {
    async rank(query, limit) {
      const [terms] = await termFrequencies(db, [query])
      const scores = new Map<number, number>()
      for (const lexeme of terms!.keys()) {
        const list = postings.get(lexeme) ?? []
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
        for (const { doc, tf } of list) {
          const norm = REFERENCE_K1 * (1 - REFERENCE_B + (REFERENCE_B * lengths[doc]!) / averageLength)
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (REFERENCE_K1 + 1)) / (tf + norm))
        }
      }
      return [...scores.entries()]
        .sort((a, b) => b[1] - a[1] || (docs[a[0]]!.id < docs[b[0]]!.id ? -1 : 1))
        .slice(0, limit)
        .map(([doc]) => docs[doc]!.id)
    },
  }
}
