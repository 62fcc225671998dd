/**
 * The full-disk fault matrix: every way brain writes (import, sync, put, capture, embed, remember
 * and an agent hook's transcript capture), by one big write and by many small ones, with the disk
 * filling at the first, the middle and the last write the work does. Each must end with
 * `disk_full` (or, where only the work's bookkeeping was left, completed) within seconds, keep
 * reads answering, lose nothing stored before, and succeed when run again once space is back.
 *
 * The embedded engine checks its free-space reading before each write, so the reading is what the
 * test controls: it drops below the reserve at the write chosen. The tmpfs tests beside this one
 * fill a real disk for import and put. The same matrix on the server engine, where the full disk
 * is PostgreSQL's own error on a real small disk, is server-disk-matrix.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { captureTranscript } from '../../src/agents/capture-transcript.js'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { readEmptyTemplate } from '../../src/db/template.js'
import type { Database } from '../../src/db/types.js'
import { embedStale } from '../../src/embedding/store/run-embed.js'
import { capturePage } from '../../src/intake/capture/capture-page.js'
import { importFolder } from '../../src/intake/import/import-folder.js'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { runSync } from '../../src/intake/sync/index.js'
import { remember } from '../../src/memory/index.js'
import { putPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { testConfig } from '../queue/helpers.js'
import { bagOfWordsEmbedder } from '../search/helpers.js'
import { makeRepo } from '../intake/sync/helpers.js'

const MIB = 1024 * 1024
const RESERVE = 32 * MIB
/** Within the guard's re-read margin, so every write reads the disk afresh and is counted. */
const ROOM = RESERVE + 64 * MIB
/** What the issue asks of every stage: an answer within seconds of the fault. */
const ANSWER_WITHIN_MS = 10_000

/** The free-space reading the brain sees: plenty until the chosen write, then below the reserve. */
class Disk {
  reads = 0
  private fullFrom = Number.POSITIVE_INFINITY

  reading(): number {
    this.reads++
    return this.reads >= this.fullFrom ? RESERVE - MIB : ROOM
  }

  /** The next run's `write`-th check finds the disk full, and every check after it. */
  fillAt(write: number): void {
    this.reads = 0
    this.fullFrom = write
  }

  free(): void {
    this.reads = 0
    this.fullFrom = Number.POSITIVE_INFINITY
  }
}

const disk = new Disk()
const template = readEmptyTemplate() ?? undefined
const db: Database = await openPglite({
  dataDir: 'memory',
  memory: true,
  ...(template ? { template } : {}),
  freeSpace: { dir: tmpdir(), reserveBytes: RESERVE, read: () => disk.reading() },
})
if (!template) await migrate(db)
t.teardown(() => db.close())
const config = testConfig()
const brain = { db, config, logger: silentLogger }
const writer = { db, logger: silentLogger, repoPath: null, remote: false }

const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 97} lorem ipsum dolor sit amet`).join(' ')
const bigNote = (seed: string) => `# ${seed}\n\n${Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${words(40, `${seed}w${i}`)}\n`).join('\n')}`
const smallNote = (seed: string, i: number) => `# ${seed} ${i}\n\n${words(12, `${seed}n${i}`)}\n`

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-disk-matrix-'))
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body)
  return dir
}

function transcript(seed: string, messages: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'brain-disk-transcript-')), `${seed}.jsonl`)
  const lines = Array.from({ length: messages }, (_, i) =>
    i % 2 === 0
      ? { type: 'user', sessionId: seed, timestamp: '2026-11-20T09:00:00Z', message: { role: 'user', content: `Ask Wren Fenwhistle about ${words(8, `${seed}q${i}`)}` } }
      : { type: 'assistant', sessionId: seed, timestamp: '2026-11-20T09:00:04Z', message: { role: 'assistant', content: [{ type: 'text', text: words(20, `${seed}a${i}`) }] } },
  )
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return path
}

await putPage(writer, { slug: 'people/wren-fenwhistle', content: '---\ntitle: Wren Fenwhistle\ntype: person\n---\n\nWren Fenwhistle runs the Harrowgate pilot.\n' })
const WREN = { page: 'default:people/wren-fenwhistle', kept: 'Wren Fenwhistle runs the Harrowgate pilot.' }
const git = makeRepo({ 'start.md': '# Start\n' })
await insertSource(db, { id: 'repo', localPath: git.dir, strategy: 'auto' })

/** One write path run one way; each call gets a fresh name, so every run has new work of the same size. */
interface Case {
  path: string
  shape: 'one big write' | 'many small writes'
  /** Pages the work adds to (`source:slug`): a run stopped part way may have added to them, and must have kept what they held. */
  adds?: { page: string; kept: string }
  /** Makes the input of one run; `run` does the work (the same input again must finish it). */
  prepare(seed: string): Promise<() => Promise<unknown>>
}

const embedder = bagOfWordsEmbedder()
async function unembedded(seed: string, pages: number, size: (i: number) => string): Promise<void> {
  disk.free()
  for (let i = 0; i < pages; i++) await putPage(writer, { slug: `embed/${seed}-${i}`, content: size(i) })
}

const CASES: Case[] = [
  // First, while the brain holds few chunks: embedding works through every chunk still without a vector.
  {
    path: 'embed',
    shape: 'one big write',
    prepare: async (seed) => {
      await unembedded(seed, 1, () => bigNote(seed).slice(0, 6000))
      return () => embedStale(db, embedder, { batchSize: 500 })
    },
  },
  {
    path: 'embed',
    shape: 'many small writes',
    prepare: async (seed) => {
      await unembedded(seed, 8, (i) => smallNote(seed, i))
      return () => embedStale(db, embedder, { batchSize: 1 })
    },
  },
  {
    path: 'import',
    shape: 'one big write',
    prepare: async (seed) => {
      const dir = folder({ [`${seed}.md`]: bigNote(seed) })
      return () => importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
    },
  },
  {
    path: 'import',
    shape: 'many small writes',
    prepare: async (seed) => {
      const dir = folder(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${seed}-${i}.md`, smallNote(seed, i)])))
      return () => importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
    },
  },
  {
    path: 'sync',
    shape: 'one big write',
    prepare: async (seed) => {
      git.write(`${seed}.md`, bigNote(seed)).commit(seed)
      return () => runSync(db, { sourceId: 'repo' }, { embedder: null, holder: 'disk-matrix' })
    },
  },
  {
    path: 'sync',
    shape: 'many small writes',
    prepare: async (seed) => {
      for (let i = 0; i < 20; i++) git.write(`${seed}/n-${i}.md`, smallNote(seed, i))
      git.commit(seed)
      return () => runSync(db, { sourceId: 'repo' }, { embedder: null, holder: 'disk-matrix' })
    },
  },
  {
    path: 'put',
    shape: 'one big write',
    prepare: async (seed) => () => putPage(writer, { slug: `notes/${seed}`, content: bigNote(seed) }),
  },
  {
    path: 'put',
    shape: 'many small writes',
    prepare: async (seed) => async () => {
      for (let i = 0; i < 12; i++) await putPage(writer, { slug: `notes/${seed}-${i}`, content: smallNote(seed, i) })
    },
  },
  {
    path: 'capture',
    shape: 'one big write',
    prepare: async (seed) => () => capturePage(brain, { content: bigNote(seed), slug: `captures/${seed}`, capturedAt: new Date('2026-11-20T10:00:00Z'), noEmbed: true }),
  },
  {
    path: 'capture',
    shape: 'many small writes',
    prepare: async (seed) => async () => {
      for (let i = 0; i < 10; i++) await capturePage(brain, { content: smallNote(seed, i), slug: `captures/${seed}-${i}`, capturedAt: new Date('2026-11-20T10:00:00Z'), noEmbed: true })
    },
  },
  {
    path: 'remember',
    shape: 'one big write',
    adds: WREN,
    prepare: async (seed) => () => remember(writer, { text: `Wren Fenwhistle said ${words(400, seed)}`, key: `${seed}-long` }),
  },
  {
    path: 'remember',
    shape: 'many small writes',
    adds: WREN,
    prepare: async (seed) => async () => {
      for (let i = 0; i < 8; i++) await remember(writer, { text: `Wren Fenwhistle prefers ${seed} option ${i}.`, key: `${seed}-${i}` })
    },
  },
  {
    path: 'transcript capture',
    shape: 'one big write',
    prepare: async (seed) => {
      const path = transcript(seed, 100)
      return () => captureTranscript(brain, { transcriptPath: path, sessionId: seed, harness: 'claude-code', cwd: null, noEmbed: true })
    },
  },
  {
    path: 'transcript capture',
    shape: 'many small writes',
    prepare: async (seed) => async () => {
      // A session captured as it grows: each turn's Stop hook rewrites the session page.
      for (let turns = 2; turns <= 8; turns += 2) await captureTranscript(brain, { transcriptPath: transcript(seed, turns), sessionId: seed, harness: 'claude-code', cwd: null, noEmbed: true })
    },
  },
]

/** Every stored page and its content hash: what "nothing lost" compares. */
async function stored(): Promise<Map<string, string>> {
  const { rows } = await db.query<{ key: string; content_hash: string }>(`SELECT source_id || ':' || slug AS key, content_hash FROM pages ORDER BY 1`)
  return new Map(rows.map((r) => [r.key, r.content_hash]))
}

async function outcome(run: () => Promise<unknown>): Promise<{ error: { code?: string } | null; ms: number }> {
  const started = performance.now()
  try {
    await run()
    return { error: null, ms: performance.now() - started }
  } catch (err) {
    return { error: err as { code?: string }, ms: performance.now() - started }
  }
}

for (const c of CASES) {
  t.test(`${c.path}, ${c.shape}: a disk full at its first, middle and last write`, async (t) => {
    let runs = 0
    const seed = () => `${c.path.replace(/\W+/g, '-')}-${c.shape.startsWith('one') ? 'big' : 'small'}-${runs++}`
    // The first run of a kind can do one-off work (a source's first sync); the second counts the writes.
    disk.free()
    await (
      await c.prepare(seed())
    )()
    const probe = await c.prepare(seed())
    disk.free()
    await probe()
    const writes = disk.reads
    t.ok(writes > 0, `the work writes (${writes} checked writes)`)
    for (const at of [...new Set([1, Math.ceil(writes / 2), writes])]) {
      const before = await stored()
      const run = await c.prepare(seed())
      disk.fillAt(at)
      const failed = await outcome(run)
      if (at === 1) t.equal(failed.error?.code, 'disk_full', `the disk full at its first write ends the work with disk_full`)
      // Past the work's last write of its own, only bookkeeping (lower floor) may be left: it completes.
      else t.ok(failed.error === null || failed.error.code === 'disk_full', `the disk full at write ${at} of ${writes}: disk_full or done (${failed.error?.code ?? 'done'})`)
      t.ok(failed.ms < ANSWER_WITHIN_MS, `within seconds (${Math.round(failed.ms)} ms)`)
      t.ok((await db.query(`SELECT count(*) FROM pages`)).rows.length === 1, 'reads still answer on the full disk')
      const after = await stored()
      const lost = [...before].filter(([key, hash]) => after.get(key) !== hash && key !== c.adds?.page)
      t.same(lost, [], 'every page stored before is as it was')
      if (c.adds) {
        const [source, slug] = c.adds.page.split(':')
        const page = await db.query<{ compiled_truth: string }>(`SELECT compiled_truth FROM pages WHERE source_id = $1 AND slug = $2`, [source, slug])
        t.match(page.rows[0]?.compiled_truth, c.adds.kept, 'the page it adds to keeps what it held')
      }
      disk.free()
      const again = await outcome(run)
      t.equal(again.error, null, 'with space back the same work completes')
    }
  })
}
