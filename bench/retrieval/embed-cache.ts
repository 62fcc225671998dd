/**
 * Embeddings of one text computed once per run: both engines import the same chunks and every
 * mode embeds the same queries. With a file (`--embed-cache FILE`, opt-in) the vectors also
 * survive the run, so tuning does not pay the local model again; nothing is kept otherwise.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { EmbeddingProvider } from '../../src/embedding/index.js'

export interface CachingEmbedder extends EmbeddingProvider {
  save(): void
}

const keyOf = (model: string, text: string): string => createHash('sha256').update(model).update('\u0000').update(text).digest('hex')

export function cachingEmbedder(inner: EmbeddingProvider, file: string | null): CachingEmbedder {
  const cache = new Map<string, number[]>()
  if (file && existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const [key, vector] = JSON.parse(line) as [string, number[]]
      cache.set(key, vector)
    }
  }
  let added = false
  return {
    name: inner.name,
    model: inner.model,
    async embed(texts, options) {
      const missing = [...new Set(texts.filter((t) => !cache.has(keyOf(inner.model, t))))]
      if (missing.length > 0) {
        const vectors = await inner.embed(missing, options)
        missing.forEach((text, i) => cache.set(keyOf(inner.model, text), vectors[i]!))
        added = true
      }
      return texts.map((t) => cache.get(keyOf(inner.model, t))!)
    },
    save() {
      if (!file || !added) return
      writeFileSync(file, [...cache.entries()].map((entry) => JSON.stringify(entry)).join('\n') + '\n')
    },
  }
}
