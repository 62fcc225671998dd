import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import { countStaleChunks, embeddingProviderFor, type EmbedRunResult } from '../../src/embedding/store/index.js'
import { importPage } from '../../src/pages/index.js'
import { openQueue } from '../../src/queue/index.js'
import { query } from '../../src/search/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import embedHandler from '../../workers/embed.js'
import type { JobContext } from '../../src/queue/handler.js'
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../embedding/fake-openai-server.js'
import { engineTest } from '../helpers/engines.js'

let fake: FakeOpenAIServer
t.before(async () => {
  fake = await startFakeOpenAIServer()
})
t.teardown(() => fake.close())

const note = (i: number) => `# Meeting ${i}\n\n${`We discussed the storage migration plan, step ${i}. `.repeat(50)}\n\n## Follow-up\n\n${'Owners and dates. '.repeat(80)}`

engineTest(t, 'import while the OpenAI-compatible server fails, then embed --stale after it recovers', async (t, { db }) => {
  const config = loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-e2e-')), OPENAI_API_KEY: fake.validKey, OPENAI_BASE_URL: fake.baseURL } })
  t.equal(config.embedding.provider, 'openai', 'a configured key selects the openai provider')
  const provider = embeddingProviderFor(config.embedding)

  fake.behavior.mode = 'error500'
  const imported = []
  for (let i = 0; i < 2; i++) {
    imported.push(await importPage(db, { slug: `meetings/m-${i}`, kind: 'markdown', content: note(i) }, { embedder: provider }))
  }
  t.ok(
    imported.every((r) => r.status === 'created' && r.chunks > 0 && r.embedded === 0),
    'pages and chunks are stored',
  )
  t.match(imported[0]!.embedError, { class: 'ProviderError' }, 'the failure is reported, not thrown')
  const chunkCount = imported.reduce((n, r) => n + r.chunks, 0)
  t.equal(await countStaleChunks(db), chunkCount, 'every chunk has a NULL embedding')
  const keywordOnly = await query({ db, settings: config.search, embedding: config.embedding }, 'storage migration plan')
  t.equal(keywordOnly.keyword_only, 'no_embeddings', 'hybrid says it ran keyword-only')
  t.equal(keywordOnly.results.length, 2)

  fake.behavior.mode = 'ok'
  const progress: Array<{ done: number; total?: number }> = []
  const queue = await openQueue({ db, config, logger: memoryLogger() })
  t.teardown(() => queue.close())
  const job = await queue.submitAndWait('embed', { mode: 'stale' }, { onProgress: (p) => progress.push(p) })
  t.equal(job.status, 'completed', 'embed --stale runs as an embed job')
  const result = job.result as EmbedRunResult
  t.match(result, { mode: 'stale', model: 'text-embedding-3-large', total: chunkCount, embedded: chunkCount, failed: 0, error: null })
  t.equal(await countStaleChunks(db), 0, 'the server recovered: every chunk is embedded')
  t.equal(progress.at(-1)?.done, chunkCount, 'progress reached the total')
  const { rows } = await db.query<{ model: string; n: number }>('SELECT model, count(*)::int AS n FROM content_chunks GROUP BY model')
  t.same(rows, [{ model: 'text-embedding-3-large', n: chunkCount }])

  const hybrid = await query({ db, settings: config.search, embedding: config.embedding }, 'storage migration plan')
  t.same(hybrid.ran, ['keyword', 'vector'])
  t.equal(hybrid.model, 'text-embedding-3-large')

  const ctx: JobContext = {
    jobId: 'direct',
    name: 'embed',
    data: { mode: 'everything' },
    signal: new AbortController().signal,
    db,
    config,
    logger: memoryLogger(),
    progress: () => undefined,
  }
  await t.rejects(embedHandler(ctx), { errorClass: 'ValidationError', code: 'embed_invalid_mode' })
})
