import type { Database } from '../../src/db/types.js'
import { EMBEDDING_DIMENSIONS, type EmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import type { SearchDeps } from '../../src/search/index.js'

function hash(term: string): number {
  let h = 2166136261
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619)
  return (h >>> 0) % EMBEDDING_DIMENSIONS
}

/**
 * A deterministic stand-in for a real model: a bag of hashed words (with a crude plural fold),
 * so cosine similarity is word overlap. Synonyms listed in `aliases` share a dimension, which
 * lets a test build a paraphrase that shares no word with its target.
 */
export function bagOfWordsEmbedder(model = 'test-bag-of-words', aliases: Record<string, string> = {}): EmbeddingProvider & { calls: number } {
  const provider = {
    name: 'local' as const,
    model,
    calls: 0,
    async embed(texts: string[]): Promise<number[][]> {
      provider.calls++
      return texts.map((text) => {
        const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0)
        for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          const word = raw.length > 3 ? raw.replace(/s$/, '') : raw
          vector[hash(aliases[word] ?? word)]! += 1
        }
        vector[EMBEDDING_DIMENSIONS - 1] = 0.01 // never the zero vector
        return vector
      })
    },
  }
  return provider
}

/**
 * Dense deterministic vectors from hashed character trigrams: every pair of texts gets a graded
 * similarity, so nearest-neighbour results have no near-ties for the HNSW index to break
 * differently from one build to the next.
 */
export function trigramEmbedder(model = 'test-trigrams'): EmbeddingProvider {
  return {
    name: 'local',
    model,
    async embed(texts: string[]): Promise<number[][]> {
      return texts.map((text) => {
        const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0)
        const flat = ` ${text.toLowerCase().replace(/\s+/g, ' ')} `
        for (let i = 0; i + 3 <= flat.length; i++) vector[hash(flat.slice(i, i + 3))]! += 1
        vector[EMBEDDING_DIMENSIONS - 1] = 0.01
        return vector
      })
    },
  }
}

export function failingEmbedder(model: string): EmbeddingProvider {
  return {
    name: 'openai',
    model,
    async embed(): Promise<number[][]> {
      const { ProviderError } = await import('../../src/errors/index.js')
      throw new ProviderError('embedding_request_failed', 'fake provider is down')
    },
  }
}

export interface PageSpec {
  slug: string
  content: string
  kind?: 'markdown' | 'code'
  path?: string
  sourceId?: string
}

export async function importAll(db: Database, pages: readonly PageSpec[], embedder: EmbeddingProvider | null): Promise<void> {
  for (const page of pages) {
    await importPage(db, { slug: page.slug, kind: page.kind ?? 'markdown', content: page.content, path: page.path, sourceId: page.sourceId }, { embedder })
  }
}

export function context(db: Database, embedder: EmbeddingProvider | undefined, settings: Partial<SearchDeps['settings']> = {}): SearchDeps {
  return { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null, ...settings } }
}

export const slugs = (response: { results: Array<{ slug: string }> } | Array<{ slug: string }>): string[] => (Array.isArray(response) ? response : response.results).map((r) => r.slug)
