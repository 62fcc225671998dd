// test-runner: shares a process
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/index.js'
import type { Database, EngineConfig } from '../../src/db/index.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { dataBytes } from '../../src/db/pglite-pool.js'
import { emptyTemplateDirectory } from '../../src/db/template.js'

const MiB = 1024 * 1024

function engineIn(dir: string, bufferPoolBytes?: number): EngineConfig {
  return {
    kind: 'pglite',
    dataDir: join(dir, 'db'),
    url: null,
    statementTimeoutMs: 0,
    idleTxTimeoutMs: 0,
    clientCheckIntervalMs: 0,
    retryConnect: false,
    ...(bufferPoolBytes !== undefined ? { bufferPoolBytes } : {}),
  }
}

async function sharedBuffers(engine: EngineConfig, smallBufferPool: boolean): Promise<string> {
  const db = await openDatabase(engine, { smallBufferPool })
  try {
    const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers')
    return rows[0]!.shared_buffers
  } finally {
    await db.close()
  }
}

t.test('the embedded engine starts with the configured buffer pool; a one-shot command with the smaller one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-buffer-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  t.equal(await sharedBuffers(engineIn(dir), true), '16MB', 'a one-shot command: 16 MB')
  t.equal(await sharedBuffers(engineIn(dir, 24 * MiB), false), '24MB', 'a long-lived open: the configured pool')
  t.equal(await sharedBuffers(engineIn(dir, 4 * MiB), true), '4MB', 'a one-shot command: the configured pool when it is smaller')
  t.equal(await sharedBuffers(engineIn(dir), false), '32MB', 'unset, a small brain: 32 MB')
})

const sharedBuffersOf = async (db: Database): Promise<string> => (await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers

t.test('a pool sized to the brain grows once the brain outgrows it, while no call is under way', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-buffer-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const dataDir = join(dir, 'db')
  const grownTo: number[] = []
  const db = await openPglite({ dataDir, templateDirectory: emptyTemplateDirectory() ?? undefined, poolGrowthCheckMs: 50, onPoolGrown: (bytes) => grownTo.push(bytes) })
  let open = true
  t.teardown(() => (open ? db.close() : undefined))
  t.equal(await sharedBuffersOf(db), '32MB', 'a new brain starts with the small pool')
  const heard: string[] = []
  await db.listen('pool_test', (payload) => heard.push(payload))
  // About 110 MB, a row a page, written in a transaction that stays open a while after: the
  // engine is not replaced under it.
  const during = await db.transaction(async (tx) => {
    await tx.exec(`CREATE TABLE filler (n int, pad char(2000)) WITH (fillfactor = 10); INSERT INTO filler SELECT n, 'x' FROM generate_series(1, 13000) AS n`)
    const outgrown = dataBytes(dataDir) > 96 * MiB
    await new Promise((resolve) => setTimeout(resolve, 500))
    return { outgrown, pool: (await tx.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers }
  })
  t.same(during, { outgrown: true, pool: '32MB' }, 'outgrown inside a transaction, which kept its engine to the end')
  const deadline = Date.now() + 60_000
  let now = await sharedBuffersOf(db)
  // Each answer comes from whichever engine is live: the old one until the new one opens.
  while (now !== '128MB' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    now = await sharedBuffersOf(db)
  }
  t.equal(now, '128MB', 'reopened with the full pool')
  t.same(grownTo, [128 * MiB], 'and said so once')
  t.same((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM filler')).rows, [{ n: 13000 }], 'every row kept')
  await db.query(`SELECT pg_notify('pool_test', 'after')`)
  const heardBy = Date.now() + 30_000
  while (heard.length === 0 && Date.now() < heardBy) await new Promise((resolve) => setTimeout(resolve, 20))
  t.same(heard, ['after'], 'a subscription made before the reopen still hears')
  open = false
  await db.close()
  t.equal(await sharedBuffers(engineIn(dir), false), '128MB', 'a brain that large starts with the full pool')
})

t.test('told of a large write ahead, a brain with the small pool takes the full one at once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-buffer-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const grownTo: number[] = []
  const db = await openPglite({ dataDir: join(dir, 'db'), templateDirectory: emptyTemplateDirectory() ?? undefined, onPoolGrown: (bytes) => grownTo.push(bytes) })
  t.teardown(() => db.close())
  await db.expectGrowth!(60 * MiB)
  t.equal(await sharedBuffersOf(db), '32MB', 'a brain a few times the small pool: the small pool stays')
  await db.expectGrowth!(100 * MiB)
  t.equal(await sharedBuffersOf(db), '128MB', 'a large one: the full pool before it')
  t.same(grownTo, [128 * MiB])
})
