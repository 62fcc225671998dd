// test-runner: shares a process
import t from 'tap'
import type { Database, SqlExecutor } from '../../src/db/types.js'
import { countStaleChunks, embedAll, embedAndStore, embedStale, pendingChunksOfPages, type EmbedProgress } from '../../src/embedding/store/index.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { bagOfWordsEmbedder, failingEmbedder } from '../search/helpers.js'

const sections = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `## Section ${i}\n\n${`Paragraph ${i} of ${tag} about topic ${i}. `.repeat(60)}`).join('\n\n')

async function importPages(db: Database, count: number, embedder: ReturnType<typeof bagOfWordsEmbedder> | null): Promise<void> {
  for (let i = 0; i < count; i++) {
    await importPage(db, { slug: `notes/page-${i}`, kind: 'markdown', content: `# Page ${i}\n\n${sections(3, `page ${i}`)}` }, { embedder })
  }
}

interface ChunkState {
  id: number
  page: string
  chunk_index: number
  vector: string | null
  embedded_at: Date | null
  model: string | null
}

async function chunkStates(db: SqlExecutor): Promise<ChunkState[]> {
  const { rows } = await db.query<ChunkState>(
    `SELECT c.id, p.slug AS page, c.chunk_index, c.embedding::text AS vector, c.embedded_at, c.model
     FROM content_chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.slug, c.chunk_index`,
  )
  return rows
}

/** Records every row handed back to the embed run, to prove it never fetches a stored vector. */
function watching(db: Database): { db: Database; rows: Array<Record<string, unknown>> } {
  const rows: Array<Record<string, unknown>> = []
  const proxy: Database = Object.create(db) as Database
  proxy.query = async <R extends object>(text: string, params?: readonly unknown[]) => {
    const result = await db.query<R>(text, params as never)
    rows.push(...(result.rows as Array<Record<string, unknown>>))
    return result
  }
  return { db: proxy, rows }
}

const looksLikeVector = (value: unknown): boolean => typeof value === 'string' && /^\[-?\d/.test(value) && value.length > 100

engineTest(t, 'embed --stale', async (t, { db }) => {
  const model = bagOfWordsEmbedder('model-a')

  await t.test('returns at once when nothing is stale', async (t) => {
    const result = await embedStale(db, model)
    t.match(result, { mode: 'stale', total: 0, embedded: 0, failed: 0, remaining: 0, error: null })
    t.equal(model.calls, 0, 'the provider is not called')
  })

  await t.test('embeds only NULL embeddings and preserves the rest of a partly stale page', async (t) => {
    await importPages(db, 3, model)
    const before = await chunkStates(db)
    t.ok(before.length >= 6 && before.every((c) => c.vector !== null), `${before.length} chunks, all embedded`)
    // Re-import page-1 with one section changed: only that chunk loses its vector.
    const changed = `# Page 1\n\n${sections(3, 'page 1').replace('Paragraph 1 of page 1', 'Paragraph 1 (edited) of page 1')}`
    await importPage(db, { slug: 'notes/page-1', kind: 'markdown', content: changed }, { embedder: null })
    const afterEdit = await chunkStates(db)
    const stale = afterEdit.filter((c) => c.vector === null)
    t.ok(stale.length >= 1 && stale.every((c) => c.page === 'notes/page-1'), 'the edited chunk is stale')
    t.equal(await countStaleChunks(db), stale.length)

    const watched = watching(db)
    const progress: EmbedProgress[] = []
    const result = await embedStale(watched.db, model, { onProgress: (p) => progress.push(p) })
    t.match(result, { mode: 'stale', model: 'model-a', total: stale.length, embedded: stale.length, failed: 0, remaining: 0, error: null })
    t.notOk(
      watched.rows.some((row) => Object.values(row).some(looksLikeVector)),
      'no stored vector was read',
    )
    t.same(progress.at(-1), { done: stale.length, total: stale.length, message: `embedded ${stale.length} of ${stale.length} chunks` })

    const after = await chunkStates(db)
    for (const chunk of after) {
      const was = afterEdit.find((c) => c.id === chunk.id)!
      if (was.vector !== null) {
        t.equal(chunk.vector, was.vector, `${chunk.page}#${chunk.chunk_index} vector kept`)
        t.same(chunk.embedded_at, was.embedded_at, `${chunk.page}#${chunk.chunk_index} embedded_at kept`)
      } else {
        t.ok(chunk.vector !== null && chunk.embedded_at !== null && chunk.model === 'model-a', `${chunk.page}#${chunk.chunk_index} filled`)
      }
    }
    t.equal(await countStaleChunks(db), 0)
  })

  await t.test('pages through listings larger than one listing', async (t) => {
    await db.query('UPDATE content_chunks SET embedding = NULL, embedded_at = NULL, model = NULL')
    const total = await countStaleChunks(db)
    const result = await embedStale(db, model, { listLimit: 2, batchSize: 1 })
    t.match(result, { total, embedded: total, remaining: 0 })
    t.equal(await countStaleChunks(db), 0)
  })

  await t.test('a failing provider leaves chunks stale, reports the error and gives up after three batches', async (t) => {
    await db.query('UPDATE content_chunks SET embedding = NULL, embedded_at = NULL, model = NULL')
    const total = await countStaleChunks(db)
    const result = await embedStale(db, failingEmbedder('model-x'), { batchSize: 1 })
    t.match(result, { total, embedded: 0, failed: 3, remaining: total - 3, error: { class: 'ProviderError', code: 'embedding_request_failed' } })
    t.equal(await countStaleChunks(db), total, 'nothing lost, nothing written')
  })

  await t.test('an aborted run stops', async (t) => {
    const controller = new AbortController()
    controller.abort()
    await t.rejects(embedStale(db, model, { signal: controller.signal }))
  })
})

engineTest(t, 'embed --all', async (t, { db }) => {
  const first = bagOfWordsEmbedder('model-a')
  await importPages(db, 2, first)
  const before = await chunkStates(db)
  const second = bagOfWordsEmbedder('model-b')
  const progress: EmbedProgress[] = []
  const result = await embedAll(db, second, { batchSize: 2, onProgress: (p) => progress.push(p) })
  t.match(result, { mode: 'all', model: 'model-b', total: before.length, embedded: before.length, failed: 0, error: null })
  const after = await chunkStates(db)
  t.ok(
    after.every((c) => c.model === 'model-b' && c.vector !== null),
    'every chunk re-embedded with the active model',
  )
  t.ok(
    after.every((c) => c.embedded_at! >= before.find((b) => b.id === c.id)!.embedded_at!),
    'embedded_at moved forward',
  )
  t.equal(progress.at(-1)?.done, before.length)

  const failing = await embedAll(db, failingEmbedder('model-c'), { batchSize: 1 })
  t.match(failing, { embedded: 0, failed: 3, remaining: before.length - 3 })
  t.ok(
    (await chunkStates(db)).every((c) => c.model === 'model-b' && c.vector !== null),
    'a failed --all keeps the vectors it had',
  )
})

engineTest(t, 'a long list of chunks is embedded and stored a slice at a time', async (t, { db }) => {
  await importPages(db, 2, null)
  const pending = await pendingChunksOfPages(
    db,
    (await db.query<{ id: number }>('SELECT id FROM pages ORDER BY id')).rows.map((r) => Number(r.id)),
  )
  t.ok(pending.length >= 5, `${pending.length} chunks to embed`)
  const updates: number[] = []
  const counting: Database = Object.create(db) as Database
  counting.query = async <R extends object>(text: string, params?: readonly unknown[]) => {
    if (text.trimStart().startsWith('UPDATE content_chunks')) updates.push((JSON.parse(String(params![0])) as unknown[]).length)
    return db.query<R>(text, params as never)
  }
  const model = bagOfWordsEmbedder('model-a')
  const sizes: number[] = []
  const recording = { ...model, embed: (texts: string[]) => (sizes.push(texts.length), model.embed(texts)) }
  const result = await embedAndStore(counting, recording, pending, undefined, 2)
  t.match(result, { embedded: pending.length, failed: 0, error: null })
  t.ok(
    sizes.every((n) => n <= 2),
    `the provider got at most two texts a call (${sizes.join(', ')})`,
  )
  t.ok(updates.length === sizes.length && updates.every((n) => n <= 2), `one UPDATE of at most two rows per call (${updates.join(', ')})`)
  t.equal((await chunkStates(db)).filter((c) => c.vector !== null).length, pending.length, 'every chunk stored')

  await db.query('UPDATE content_chunks SET embedding = NULL, model = NULL, embedded_at = NULL')
  let calls = 0
  const failingSecond = {
    ...model,
    embed: async (texts: string[]) => {
      if (++calls === 2) throw new Error('the provider went away')
      return model.embed(texts)
    },
  }
  const cut = await embedAndStore(db, failingSecond, pending, undefined, 2)
  t.match(cut, { embedded: 2, failed: pending.length - 2, error: { message: /went away/ } })
  t.same(
    (await chunkStates(db)).filter((c) => c.vector !== null).map((c) => c.id),
    pending.slice(0, 2).map((c) => c.id),
    'the slice before the failure stays stored, the rest stays stale',
  )
})
