/**
 * The LoCoMo brain of bench/memory: one page per dialogue turn, one source per conversation,
 * imported as `brain import` does, and with `--embed local` every chunk embedded by the shipped
 * offline model as `brain embed --stale` does. Building it (above all embedding) costs minutes
 * on a small machine, so an embedded brain is kept in a folder named by a hash of what it was
 * built from, and a later run with the same input, page format, schema and model opens it again.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrationVersions } from '../../src/db/migrate.js'
import { openDatabase } from '../../src/db/open.js'
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider, LOCAL_MODEL_ID, type EmbeddingProvider } from '../../src/embedding/index.js'
import { embedStale } from '../../src/embedding/store/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { openBenchDatabase, type BenchEngine } from '../lib/engines.js'
import { turnFile, turnPage, type Conversation } from './locomo.js'

/** Raised when the pages the harness writes change, so a kept brain of the old pages is not reused. */
const PAGE_FORMAT = 1
const MARKER = 'bench-memory.json'

export interface MemoryBrain {
  db: Database
  /** The model that embeds questions; null when the brain has no vectors. */
  embedder: EmbeddingProvider | null
  close: () => Promise<void>
}

export interface BrainOptions {
  engine: BenchEngine
  /** `local`: embed every chunk with the shipped model; null: keyword search only. */
  embed: 'local' | null
  /** Where to keep an embedded PGLite brain; default a folder under the temp folder named by its key. */
  brainDir?: string
  /** The LoCoMo file, hashed into the key. */
  path: string
  log: (line: string) => void
}

export const sourceOf = (conversation: Conversation): string => conversation.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')

/** What a kept brain was built from: the input, the page format, the schema and the model. */
function brainKey(path: string, embed: string | null): string {
  const migrations = migrationVersions()
  return createHash('sha256')
    .update(readFileSync(path))
    .update(JSON.stringify({ PAGE_FORMAT, migrations, model: embed === null ? null : LOCAL_MODEL_ID }))
    .digest('hex')
    .slice(0, 16)
}

export async function openMemoryBrain(conversations: Conversation[], options: BrainOptions): Promise<MemoryBrain> {
  const embedder = options.embed === 'local' ? createEmbeddingProvider({ provider: 'local' }) : null
  const keep = options.engine === 'pglite' && (embedder !== null || options.brainDir !== undefined)
  if (!keep) {
    const { db, close } = await openBenchDatabase(options.engine)
    await build(db, conversations, embedder, options.log)
    return { db, embedder, close }
  }
  const key = brainKey(options.path, options.embed)
  const dir = options.brainDir ?? join(tmpdir(), `brain-bench-memory-${key}`)
  const marker = join(dir, MARKER)
  const kept = existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { key?: string }).key === key
  if (!kept) rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const db = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'db'), url: null, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  if (kept) options.log(`${options.engine}: the brain kept in ${dir}`)
  else {
    await build(db, conversations, embedder, options.log)
    writeFileSync(marker, JSON.stringify({ key }))
    options.log(`${options.engine}: brain kept in ${dir}`)
  }
  return { db, embedder, close: () => db.close() }
}

async function build(db: Database, conversations: Conversation[], embedder: EmbeddingProvider | null, log: (line: string) => void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-memory-pages-'))
  try {
    const started = performance.now()
    for (const conversation of conversations) {
      const source = sourceOf(conversation)
      const folder = join(root, source)
      mkdirSync(folder, { recursive: true })
      for (const turn of conversation.turns) writeFileSync(join(folder, turnFile(turn)), turnPage(conversation.id, turn))
      await db.query(`INSERT INTO sources (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [source])
      await importFolder(db, folder, { strategy: 'markdown', sourceId: source, embedder: null })
    }
    const pages = conversations.reduce((s, c) => s + c.turns.length, 0)
    log(`${pages} pages imported in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  if (embedder === null) return
  const embedded = await embedStale(db, embedder)
  if (embedded.error !== null || embedded.embedded !== embedded.total)
    throw new Error(`Embedding stopped at ${embedded.embedded} of ${embedded.total} chunks: ${embedded.error?.message ?? 'some failed'}`)
  const seconds = embedded.duration_ms / 1000
  log(`${embedded.embedded} chunks embedded with ${embedded.model} in ${seconds.toFixed(1)} s (${(embedded.embedded / seconds).toFixed(0)} chunks/s)`)
}
