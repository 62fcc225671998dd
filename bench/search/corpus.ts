/**
 * A synthetic brain at scale for latency measurements: 10,000 pages of 5 chunks each, written
 * with bulk SQL (the import pipeline is measured by bench/import). Text follows a Zipf
 * distribution over a vocabulary whose head is real English and technical words, so posting
 * lists have realistic lengths; vectors are topic centroids from the local model plus seeded
 * noise, stored under the local model's id so vector and hybrid search compare them.
 */
import type { Database } from '../../src/db/types.js'
import { LOCAL_MODEL_ID, toVectorLiteral, type EmbeddingProvider } from '../../src/embedding/index.js'
import { seededRandom } from '../retrieval/corpus.js'

export const HEAD_WORDS = (
  'meeting project design review database index query search cache latency deploy release incident ' +
  'customer billing invoice payment account login token password security audit budget plan roadmap ' +
  'garden tomato bread coffee running marathon training knee sleep travel flight hotel train museum ' +
  'book chapter notes idea essay writing draft feedback interview hiring team manager mentor career ' +
  'postgres vacuum replication backup restore snapshot kubernetes docker container cluster node shard ' +
  'queue worker job retry timeout backoff circuit breaker rate limit throttle metrics traces logs alert ' +
  'dashboard oncall pager runbook postmortem timeline decision tradeoff option risk cost estimate ' +
  'frontend backend api endpoint schema migration column table transaction lock deadlock isolation ' +
  'python typescript golang rust function class module package dependency upgrade version bug fix test ' +
  'kitchen renovation contractor plumber landlord rent tax receipt insurance doctor dentist physio ' +
  'recipe sourdough ramen pasta salad dinner lunch breakfast weekend holiday birthday family friend ' +
  'guitar piano practice scales chords song concert podcast video article newsletter blog conference'
).split(' ')

/** Deterministic pronounceable filler words for the long tail (2–4 syllables: 168,400 possible). */
function tailWords(count: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'bar', 'den', 'fol', 'gur', 'hin', 'jor', 'kel', 'mun', 'pra', 'sto', 'tra']
  const random = seededRandom(99)
  const words = new Set<string>()
  while (words.size < count) {
    const n = 2 + Math.floor(random() * 3)
    words.add(Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join(''))
  }
  return [...words]
}

/** In natural text the most frequent words are function words; full text search drops them. */
const FUNCTION_WORDS = (
  'the of and to a in is it that for on was with as he be at by this had not are but from or have an they which ' +
  'one you were her all she there would their we him been has when who will more no if out so said what up its ' +
  'about into than them can only other new some could time these two may then do first any my now such like our ' +
  'over man me even most made after also did many before must through back years where much your way well down should'
).split(' ')

export const VOCABULARY: readonly string[] = [...FUNCTION_WORDS, ...HEAD_WORDS, ...tailWords(20_000 - FUNCTION_WORDS.length - HEAD_WORDS.length)]
const CONTENT_START = FUNCTION_WORDS.length

/** Samples vocabulary ranks with P(rank r) ∝ 1 / r^s via a precomputed cumulative table. */
export function zipfSampler(size: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(size)
  let total = 0
  for (let r = 0; r < size; r++) cumulative[r] = total += 1 / (r + 1) ** s
  return () => {
    const target = random() * total
    let lo = 0
    let hi = size - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < target) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const PREFIXES: ReadonlyArray<readonly [string, number]> = [
  ['notes/', 0.4],
  ['daily/', 0.2],
  ['meetings/', 0.1],
  ['concepts/', 0.05],
  ['people/', 0.05],
  ['originals/', 0.05],
  ['src/', 0.15],
]
const LANGUAGES = ['typescript', 'python', 'go'] as const
const SYMBOL_TYPES = ['function', 'class', 'method', 'interface'] as const

export interface ScaleOptions {
  pages: number
  chunksPerPage: number
  wordsPerChunk: number
  topics: number
  onProgress?: (pagesDone: number) => void
}

export const DEFAULT_SCALE: ScaleOptions = { pages: 10_000, chunksPerPage: 5, wordsPerChunk: 120, topics: 64 }

function prefixFor(random: () => number): string {
  let x = random()
  for (const [prefix, share] of PREFIXES) {
    if ((x -= share) < 0) return prefix
  }
  return 'notes/'
}

/** Topic centroids: the local model's vectors of a few sentences made of head words. */
async function topicVectors(embedder: EmbeddingProvider, count: number): Promise<number[][]> {
  const random = seededRandom(5)
  const sentences = Array.from({ length: count }, () => Array.from({ length: 8 }, () => HEAD_WORDS[Math.floor(random() * HEAD_WORDS.length)]).join(' '))
  return embedder.embed(sentences)
}

function noisy(centroid: number[], random: () => number): string {
  // Only the first 512 entries carry signal for the local model; the rest stay zero as it pads them.
  return toVectorLiteral(centroid.map((v, i) => (i < 512 ? Number((v + (random() - 0.5) * 0.08).toFixed(5)) : 0)))
}

/** Writes the corpus; returns the number of pages and chunks written. */
export async function writeScaleCorpus(db: Database, embedder: EmbeddingProvider, options: ScaleOptions = DEFAULT_SCALE): Promise<{ pages: number; chunks: number }> {
  const random = seededRandom(12345)
  const word = zipfSampler(VOCABULARY.length, 1.07, random)
  const topics = await topicVectors(embedder, options.topics)
  const text = (n: number) => Array.from({ length: n }, () => VOCABULARY[word()]).join(' ')
  const batchPages = 200
  let chunks = 0
  for (let start = 0; start < options.pages; start += batchPages) {
    const pages = []
    for (let i = start; i < Math.min(options.pages, start + batchPages); i++) {
      const prefix = prefixFor(random)
      const code = prefix === 'src/'
      const language = code ? LANGUAGES[i % LANGUAGES.length]! : null
      const topic = topics[Math.floor(random() * topics.length)]!
      const body = Array.from({ length: options.chunksPerPage }, (_, c) => ({
        chunk_index: c,
        chunk_text: `${code ? `[${language}] ` : ''}${text(options.wordsPerChunk)}`,
        embedding: noisy(topic, random),
        language,
        symbol_type: code ? SYMBOL_TYPES[(i + c) % SYMBOL_TYPES.length] : null,
        symbol_name: code ? `fn${i}_${c}` : null,
      }))
      pages.push({ slug: `${prefix}page-${i}`, title: text(4), kind: code ? 'code' : 'markdown', chunks: body })
      chunks += body.length
    }
    await db.query(
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(slug text, title text, kind text, chunks jsonb)),
       inserted AS (
         INSERT INTO pages (slug, title, page_kind, type, compiled_truth, content_hash)
         SELECT slug, title, kind, CASE WHEN kind = 'code' THEN 'code' ELSE 'note' END,
                (SELECT string_agg(c->>'chunk_text', E'\\n\\n') FROM jsonb_array_elements(chunks) c), md5(slug)
         FROM input RETURNING id, slug)
       INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, token_count, embedding, embedded_at, model,
                                   language, symbol_type, symbol_name)
       SELECT ins.id, (c->>'chunk_index')::int, c->>'chunk_text', CASE WHEN i.kind = 'code' THEN 'code' ELSE 'compiled_truth' END,
              length(c->>'chunk_text') / 4, (c->>'embedding')::vector, now(), $2, c->>'language', c->>'symbol_type', c->>'symbol_name'
       FROM input i JOIN inserted ins ON ins.slug = i.slug, jsonb_array_elements(i.chunks) c`,
      [JSON.stringify(pages), LOCAL_MODEL_ID],
    )
    options.onProgress?.(Math.min(options.pages, start + batchPages))
  }
  return { pages: options.pages, chunks }
}

/**
 * Query mix: two-word queries of mid-frequency words (the common case), single words across the
 * frequency range (including very common ones, the slow case for full text), and three-word
 * questions. Deterministic.
 */
export function scaleQueries(count = 100): string[] {
  const random = seededRandom(4242)
  // Ranks are counted from the first content word.
  const at = (lo: number, hi: number) => VOCABULARY[CONTENT_START + lo + Math.floor(random() * (hi - lo))]!
  const queries: string[] = []
  for (let i = 0; i < count; i++) {
    const kind = i % 10
    if (kind < 5) queries.push(`${at(20, HEAD_WORDS.length)} ${at(20, HEAD_WORDS.length)}`)
    else if (kind < 8) queries.push(at(kind === 5 ? 0 : 20, kind === 7 ? 5000 : HEAD_WORDS.length))
    else queries.push(`how to ${at(0, HEAD_WORDS.length)} ${at(0, HEAD_WORDS.length)} ${at(100, 3000)}`)
  }
  return queries
}
