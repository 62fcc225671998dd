/** A chunk as either side of hybrid search ranks it (score already times the source factor). */
export interface ChunkCandidate {
  score: number
  slug: string
  source_id: string
  chunk_id: number
  chunk_index: number
}

/** A page's best fused chunk: the row as a side returned it, with the fused score. */
export type FusedChunk<T extends ChunkCandidate> = T & { keyword: number; vector: number }

const pageKeyOf = (row: ChunkCandidate): string => `${row.source_id}\u0000${row.slug}`

function byScoreThenPosition(a: { score: number; slug: string; source_id: string; chunk_index: number }, b: typeof a): number {
  return b.score - a.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) || (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0) || a.chunk_index - b.chunk_index
}

/**
 * Fuses per chunk, then keeps each page's best chunk:
 *
 *   score(c) = w · (kw(c) − kw_min) / (kw_max − kw_min) + (1 − w) · vec(c)
 *
 * kw(c) is the chunk's BM25 score in the keyword list (min and max over that list; a list of one
 * scores 1; 0 for a chunk the list does not hold), vec(c) the cosine similarity of the same chunk
 * (0 when it has no vector of the active model). Both lists hold chunks, not pages, and the
 * vector side carries the cosine of every keyword candidate, so the two kinds of evidence are
 * added up where they meet: a chunk that matches the words and the meaning beats a page whose
 * words sit in one chunk (a code fence, say) and whose meaning sits in another. Ties order by
 * slug, source and chunk index, so both engines agree.
 */
export function fuseChunks<T extends ChunkCandidate>(keyword: readonly T[], vector: readonly T[], keywordWeight: number): Array<FusedChunk<T>> {
  const scores = keyword.map((r) => Number(r.score))
  const max = Math.max(...scores)
  const min = Math.min(...scores)
  const span = max - min
  const chunks = new Map<number, { row: T; keyword: number; vector: number }>()
  keyword.forEach((row, i) => {
    if (!chunks.has(Number(row.chunk_id))) chunks.set(Number(row.chunk_id), { row, keyword: span > 0 ? (scores[i]! - min) / span : 1, vector: 0 })
  })
  for (const row of vector) {
    const entry = chunks.get(Number(row.chunk_id)) ?? { row, keyword: 0, vector: 0 }
    entry.vector = Number(row.score)
    chunks.set(Number(row.chunk_id), entry)
  }
  const best = new Map<string, FusedChunk<T>>()
  for (const { row, keyword: kw, vector: vec } of chunks.values()) {
    const fused: FusedChunk<T> = { ...row, score: keywordWeight * kw + (1 - keywordWeight) * vec, keyword: kw, vector: vec }
    const key = pageKeyOf(row)
    const held = best.get(key)
    if (!held || byScoreThenPosition(fused, held) < 0) best.set(key, fused)
  }
  return [...best.values()].sort(byScoreThenPosition)
}
