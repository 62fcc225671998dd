/**
 * The full-disk fault matrix on the server engine: every way brain writes (import, sync, put,
 * capture, embed, remember and an agent hook's transcript capture), by one big write and by many
 * small ones, against a real PostgreSQL whose cluster lives on a small tmpfs the test mounts (root
 * only). A file beside the cluster fills the disk before the work starts, or leaves room for about
 * half of what the work needs. Each must end with `disk_full` (or, where the room left was enough,
 * complete) within seconds, keep reads answering, lose or half-write nothing, and succeed on the
 * same database once the file is gone.
 *
 * Unlike the embedded engine (disk-matrix), nothing here chooses the write that fails: PostgreSQL
 * meets the full disk when it must extend a table's or an index's file, so the room left is what
 * the test controls. Its write-ahead log is kept out of the fault: a checkpoint before each fill
 * leaves recycled log segments that later writes overwrite in place. A log that cannot grow is
 * another fault: PostgreSQL then PANICs and restarts, and the work in flight ends with
 * `database_connection_lost` (pg-driver's test covers that the process survives it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { captureTranscript } from '../../src/agents/capture-transcript.js'
import { migrate } from '../../src/db/migrate.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/types.js'
import { embedStale } from '../../src/embedding/store/run-embed.js'
import { capturePage } from '../../src/intake/capture/capture-page.js'
import { importFolder } from '../../src/intake/import/import-folder.js'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { runSync } from '../../src/intake/sync/index.js'
import { remember } from '../../src/memory/index.js'
import { findPage, listPages, putPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { makeRepo } from '../intake/sync/helpers.js'
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js'
import { fillLeaving, freeBytes, mountTmpfs, stopClusterOnSmallDisk, unmount } from '../helpers/small-disk.js'
import { testConfig } from '../queue/helpers.js'
import { bagOfWordsEmbedder } from '../search/helpers.js'

/** What the issue asks of every stage: an answer within seconds of the fault. */
const ANSWER_WITHIN_MS = 10_000
/** What the test asserts, so a busy machine never goes red for being slow alone. */
const ANSWER_LIMIT_MS = 60_000
const TEMPLATE = 'brain_matrix_template'

const pgOptions = (url: string) => ({ url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })

/** Words that do not compress away, so stored text takes the disk room its length says. */
function words(n: number, seed: string): string {
  let h = 2166136261
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619)
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ (i + 1), 2654435761) >>> 0
    out.push(h.toString(36))
  }
  return out.join(' ')
}
const bigNote = (seed: string) => `# ${seed}\n\n${Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${words(60, `${seed}w${i}`)}\n`).join('\n')}`
const smallNote = (seed: string, i: number) => `# ${seed} ${i}\n\n${words(60, `${seed}n${i}`)}\n`

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-server-disk-matrix-'))
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body)
  return dir
}

function transcript(seed: string, messages: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'brain-server-disk-transcript-')), `${seed}.jsonl`)
  const lines = Array.from({ length: messages }, (_, i) =>
    i % 2 === 0
      ? { type: 'user', sessionId: seed, timestamp: '2026-11-20T09:00:00Z', message: { role: 'user', content: `Ask Wren Fenwhistle about ${words(8, `${seed}q${i}`)}` } }
      : { type: 'assistant', sessionId: seed, timestamp: '2026-11-20T09:00:04Z', message: { role: 'assistant', content: [{ type: 'text', text: words(40, `${seed}a${i}`) }] } },
  )
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return path
}

/** One case's database and the ways into it the write paths take. */
interface Brain {
  db: Database
  writer: { db: Database; logger: typeof silentLogger; repoPath: null; remote: false }
  brain: { db: Database; config: ReturnType<typeof testConfig>; logger: typeof silentLogger }
  git: ReturnType<typeof makeRepo>
}

const WREN = { source: 'default', slug: 'people/wren-fenwhistle', kept: 'Wren Fenwhistle runs the Harrowgate pilot.' }
/** Pages every case's brain holds before any fault: what "nothing lost" is first checked on. */
const KEPT = ['heron', 'marsh', 'tide'].map((name) => ({ slug: `notes/${name}`, content: `# ${name}\n\nThe ${name} note, kept through a full disk.\n` }))

/** One write path run one way; each call gets a fresh name, so every run has new work of the same size. */
interface Case {
  path: string
  shape: 'one big write' | 'many small writes'
  /** A page the work adds to (`source:slug`): a run stopped part way may have added to it, and must have kept what it held. */
  adds?: typeof WREN
  /**
   * Where each of the work's small writes commits on its own: how many of them one run stored.
   * With room for half the work, some but not all must have been stored. Elsewhere (import and
   * sync write a batch of pages in one transaction, a transcript rewrites one page) the outcome is
   * whole or nothing, and the checks that follow hold whichever it was.
   */
  partial?: { units: number; count(b: Brain, seed: string): Promise<number> }
  /** Makes the input of one run; the function returned does the work (the same again must finish it). */
  prepare(b: Brain, seed: string): Promise<() => Promise<unknown>>
}

async function countRows(db: Database, sql: string, params: string[]): Promise<number> {
  return Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n)
}
const pagesUnder = (prefix: string) => ({
  units: 12,
  count: (b: Brain, seed: string) => countRows(b.db, `SELECT count(*) AS n FROM pages WHERE starts_with(slug, $1)`, [`${prefix}${seed}-`]),
})

const embedder = bagOfWordsEmbedder()
async function unembedded(b: Brain, seed: string, pages: number, size: (i: number) => string): Promise<void> {
  for (let i = 0; i < pages; i++) await putPage(b.writer, { slug: `embed/${seed}-${i}`, content: size(i) })
}

const CASES: Case[] = [
  {
    path: 'embed',
    shape: 'one big write',
    prepare: async (b, seed) => {
      await unembedded(b, seed, 1, () => bigNote(seed))
      return () => embedStale(b.db, embedder, { batchSize: 500 })
    },
  },
  {
    path: 'embed',
    shape: 'many small writes',
    partial: {
      units: 12,
      count: (b, seed) => countRows(b.db, `SELECT count(*) AS n FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE starts_with(p.slug, $1) AND c.embedding IS NOT NULL`, [`embed/${seed}-`]),
    },
    prepare: async (b, seed) => {
      await unembedded(b, seed, 12, (i) => smallNote(seed, i))
      return () => embedStale(b.db, embedder, { batchSize: 1 })
    },
  },
  {
    path: 'import',
    shape: 'one big write',
    prepare: async (b, seed) => {
      const dir = folder({ [`${seed}.md`]: bigNote(seed) })
      return () => importFolder(b.db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
    },
  },
  {
    path: 'import',
    shape: 'many small writes',
    prepare: async (b, seed) => {
      const dir = folder(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${seed}-${i}.md`, smallNote(seed, i)])))
      return () => importFolder(b.db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
    },
  },
  {
    path: 'sync',
    shape: 'one big write',
    prepare: async (b, seed) => {
      b.git.write(`${seed}.md`, bigNote(seed)).commit(seed)
      return () => runSync(b.db, { sourceId: 'repo' }, { embedder: null, holder: 'server-disk-matrix' })
    },
  },
  {
    path: 'sync',
    shape: 'many small writes',
    prepare: async (b, seed) => {
      for (let i = 0; i < 20; i++) b.git.write(`${seed}/n-${i}.md`, smallNote(seed, i))
      b.git.commit(seed)
      return () => runSync(b.db, { sourceId: 'repo' }, { embedder: null, holder: 'server-disk-matrix' })
    },
  },
  {
    path: 'put',
    shape: 'one big write',
    prepare: async (b, seed) => () => putPage(b.writer, { slug: `notes/${seed}`, content: bigNote(seed) }),
  },
  {
    path: 'put',
    shape: 'many small writes',
    partial: pagesUnder('notes/'),
    prepare: async (b, seed) => async () => {
      for (let i = 0; i < 12; i++) await putPage(b.writer, { slug: `notes/${seed}-${i}`, content: smallNote(seed, i) })
    },
  },
  {
    path: 'capture',
    shape: 'one big write',
    prepare: async (b, seed) => () => capturePage(b.brain, { content: bigNote(seed), slug: `captures/${seed}`, capturedAt: new Date('2026-11-20T10:00:00Z'), noEmbed: true }),
  },
  {
    path: 'capture',
    shape: 'many small writes',
    partial: pagesUnder('captures/'),
    prepare: async (b, seed) => async () => {
      for (let i = 0; i < 12; i++) await capturePage(b.brain, { content: smallNote(seed, i), slug: `captures/${seed}-${i}`, capturedAt: new Date('2026-11-20T10:00:00Z'), noEmbed: true })
    },
  },
  {
    path: 'remember',
    shape: 'one big write',
    adds: WREN,
    prepare: async (b, seed) => () => remember(b.writer, { text: `Wren Fenwhistle said ${words(1500, seed)}`, key: `${seed}-long` }),
  },
  {
    path: 'remember',
    shape: 'many small writes',
    adds: WREN,
    partial: {
      units: 12,
      count: async (b, seed) => ((await findPage(b.db, WREN.source, WREN.slug))?.timeline.split(`prefers ${seed} option`).length ?? 1) - 1,
    },
    prepare: async (b, seed) => async () => {
      for (let i = 0; i < 12; i++) await remember(b.writer, { text: `Wren Fenwhistle prefers ${seed} option ${i}: ${words(40, `${seed}r${i}`)}.`, key: `${seed}-${i}` })
    },
  },
  {
    path: 'transcript capture',
    shape: 'one big write',
    prepare: async (b, seed) => {
      const path = transcript(seed, 100)
      return () => captureTranscript(b.brain, { transcriptPath: path, sessionId: seed, harness: 'claude-code', cwd: null, noEmbed: true })
    },
  },
  {
    path: 'transcript capture',
    shape: 'many small writes',
    prepare: async (b, seed) => async () => {
      // A session captured as it grows: each turn's Stop hook rewrites the session page.
      for (let turns = 2; turns <= 24; turns += 2) await captureTranscript(b.brain, { transcriptPath: transcript(seed, turns), sessionId: seed, harness: 'claude-code', cwd: null, noEmbed: true })
    },
  },
]

/** Every stored page and its content hash: what "nothing lost" compares. */
async function stored(db: Database): Promise<Map<string, string>> {
  const { rows } = await db.query<{ key: string; content_hash: string }>(`SELECT source_id || ':' || slug AS key, content_hash FROM pages ORDER BY 1`)
  return new Map(rows.map((r) => [r.key, r.content_hash]))
}

/** Pages stored without their chunks: what a half-written page would look like. */
async function halfWritten(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(`SELECT source_id || ':' || slug AS key FROM pages p WHERE NOT EXISTS (SELECT 1 FROM content_chunks c WHERE c.page_id = p.id) ORDER BY 1`)
  return rows.map((r) => r.key)
}

async function outcome(run: () => Promise<unknown>): Promise<{ error: { code?: string; errorClass?: string } | null; ms: number }> {
  const started = performance.now()
  try {
    await run()
    return { error: null, ms: performance.now() - started }
  } catch (err) {
    return { error: err as { code?: string; errorClass?: string }, ms: performance.now() - started }
  }
}

const mountPoint = mkdtempSync(join(tmpdir(), 'brain-server-disk-matrix-mnt-'))
const mounted = mountTmpfs(mountPoint, '128m')

t.test('the server engine on a full disk, every write path', { skip: mounted ? false : 'mounting a tmpfs needs root' }, async (t) => {
  let cluster: PgCluster | null = null
  let admin: Database | null = null
  t.teardown(async () => {
    await admin?.close()
    if (cluster !== null) await stopClusterOnSmallDisk(cluster)
    await unmount(mountPoint)
    rmSync(mountPoint, { recursive: true, force: true })
  })
  cluster = await startPgCluster({ parent: mountPoint, walSegmentMiB: 1 })
  admin = await openPostgres(pgOptions(cluster.adminUrl))
  await admin.exec(`CREATE DATABASE ${TEMPLATE}`)
  const templateDb = await openPostgres(pgOptions(cluster.adminUrl.replace(/\/postgres$/, `/${TEMPLATE}`)))
  await migrate(templateDb)
  await templateDb.close()
  const filler = join(mountPoint, 'filler.bin')
  const config = testConfig()

  let databases = 0
  for (const c of CASES) {
    t.test(`${c.path}, ${c.shape}: a disk full before the work, and part way through`, async (t) => {
      // A file copy of the template, not a WAL-logged one: the small disk's WAL stays small.
      const name = `brain_matrix_${databases++}`
      await admin!.exec(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE} STRATEGY FILE_COPY`)
      const db = await openPostgres(pgOptions(cluster!.adminUrl.replace(/\/postgres$/, `/${name}`)))
      t.teardown(async () => {
        rmSync(filler, { force: true })
        await db.close()
        await admin!.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      })
      const b: Brain = {
        db,
        writer: { db, logger: silentLogger, repoPath: null, remote: false },
        brain: { db, config, logger: silentLogger },
        git: makeRepo({ 'start.md': '# Start\n' }),
      }
      await putPage(b.writer, { slug: WREN.slug, content: `---\ntitle: Wren Fenwhistle\ntype: person\n---\n\n${WREN.kept}\n` })
      for (const page of KEPT) await putPage(b.writer, page)
      await insertSource(db, { id: 'repo', localPath: b.git.dir, strategy: 'auto' })

      let runs = 0
      const seed = () => `${c.path.replace(/\W+/g, '-')}-${c.shape.startsWith('one') ? 'big' : 'small'}-${runs++}`
      // The first run of a kind can do one-off work (a source's first sync); the second measures how much the work grows the database.
      await (
        await c.prepare(b, seed())
      )()
      const probe = await c.prepare(b, seed())
      const size = async () => (await db.query<{ bytes: string; wal: string }>(`SELECT pg_database_size(current_database()) AS bytes, pg_current_wal_insert_lsn()::text AS wal`)).rows[0]!
      const sizeBefore = await size()
      await probe()
      const sizeAfter = await size()
      const grows = Number(sizeAfter.bytes) - Number(sizeBefore.bytes)
      const logged = Number((await db.query<{ bytes: string }>(`SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::bigint AS bytes`, [sizeAfter.wal, sizeBefore.wal])).rows[0]!.bytes)
      t.ok(grows > 0, `the work grows the database (${grows} bytes; ${logged} bytes of log)`)

      // The page the work adds to may have changed: what it must keep is checked apart.
      const addsTo = c.adds ? `${c.adds.source}:${c.adds.slug}` : null
      for (const fault of ['before the work', 'part way through'] as const) {
        const before = await stored(db)
        const runSeed = seed()
        const run = await c.prepare(b, runSeed)
        // Log segments recycled now are overwritten in place later: the disk runs out where PostgreSQL extends a table or an index.
        await db.exec('CHECKPOINT')
        fillLeaving(mountPoint, filler, fault === 'before the work' ? 0 : Math.floor(grows / 2))
        const room = freeBytes(mountPoint)
        const failed = await outcome(run)
        if (fault === 'before the work') {
          t.match(failed.error, { errorClass: 'DiskError', code: 'disk_full' }, `a disk full before the work ends it with disk_full (${failed.error?.code ?? 'done'})`)
        } else {
          // With room for about half of the work, the work may still fit (the tables had room in their last pages): then it completes.
          t.ok(
            failed.error === null || (failed.error.errorClass === 'DiskError' && failed.error.code === 'disk_full'),
            `room for half the work (${room} bytes free): disk_full or done (${failed.error?.code ?? 'done'})`,
          )
        }
        t.ok(failed.ms < ANSWER_LIMIT_MS, `answered within seconds (${Math.round(failed.ms)} ms; the aim is ${ANSWER_WITHIN_MS} ms)`)

        const listed = await listPages(db, { slugPrefix: 'notes/', limit: 1000 })
        t.ok(
          KEPT.every((page) => listed.some((p) => p.slug === page.slug)),
          'list still answers on the full disk',
        )
        t.match((await findPage(db, 'default', 'notes/marsh'))?.compiledTruth, 'The marsh note, kept through a full disk.', 'get still answers on the full disk')
        const after = await stored(db)
        const lost = [...before].filter(([key, hash]) => after.get(key) !== hash && key !== addsTo)
        t.same(lost, [], 'every page stored before is as it was')
        t.same(await halfWritten(db), [], 'no page is stored without its chunks')
        if (c.partial) {
          const done = await c.partial.count(b, runSeed)
          if (fault === 'part way through') t.ok(done > 0 && done < c.partial.units, `some but not all of the small writes were stored (${done} of ${c.partial.units})`)
          else t.comment(`${c.path}, ${c.shape}: ${done} of ${c.partial.units} small writes fitted in the room the tables had left`)
        }
        if (c.adds) t.match((await findPage(db, c.adds.source, c.adds.slug))?.compiledTruth, c.adds.kept, 'the page it adds to keeps what it held')

        rmSync(filler)
        const again = await outcome(run)
        t.equal(again.error, null, 'with space back the same work completes on the same database')
        const resumed = await stored(db)
        t.same(
          [...before].filter(([key, hash]) => resumed.get(key) !== hash && key !== addsTo),
          [],
          'and every earlier page is intact',
        )
        t.same(await halfWritten(db), [], 'with no page half-written')
        if (c.partial) t.equal(await c.partial.count(b, runSeed), c.partial.units, 'and every one of its small writes stored once')
        if (c.adds) t.match((await findPage(db, c.adds.source, c.adds.slug))?.compiledTruth, c.adds.kept, 'the page it added to still keeps what it held')
      }
    })
  }
})

if (!mounted) rmSync(mountPoint, { recursive: true, force: true })
