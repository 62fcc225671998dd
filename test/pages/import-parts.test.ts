// test-runner: shares a process
/**
 * A bulk import's batches go in parts of one transaction each where statements take turns on one
 * engine: an import cut short keeps the parts it committed and a re-run stores every page once,
 * and a search started while an import writes gets its turn before the import ends.
 */
import t from 'tap'
import { importFiles } from '../../src/intake/import/import-files.js'
import { search } from '../../src/search/index.js'
import { DiskError } from '../../src/errors/index.js'
import type { Database, SqlExecutor } from '../../src/db/types.js'
import type { WalkedFile } from '../../src/intake/sources/walk.js'
import { context } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

const NOTES = 200

function notes(count: number): Map<string, string> {
  const files = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    const body = `Note ${i} is about tomatoes, basil and the garden, and links to [[note-${(i + 1) % count}]].\n\n## Part ${i}\n\n${'word '.repeat(30 + (i % 40))}\n`
    files.set(`notes/note-${i}.md`, `---\ntitle: Note ${i}\n---\n\n${body}`)
  }
  return files
}

function walked(files: Map<string, string>): WalkedFile[] {
  return [...files.keys()].map((path) => ({ relativePath: path, absolutePath: `/unused/${path}`, kind: 'markdown', size: 0 }) as WalkedFile)
}

/** The same database, with `onTransaction` told before each transaction begins. */
function watched(db: Database, onTransaction: () => void): Database {
  return Object.assign(Object.create(db) as Database, {
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
      onTransaction()
      return db.transaction(fn)
    },
  })
}

const count = async (db: SqlExecutor, sql: string): Promise<number> => Number((await db.query<{ n: number }>(sql)).rows[0]!.n)

engineTest(t, 'an import cut short after its first transaction keeps it, and a re-run stores every page once', async (t, { engine, db }) => {
  const files = notes(NOTES)
  const options = { sourceId: 'default', embedder: null, batchFiles: 50, readContent: async (f: WalkedFile) => files.get(f.relativePath)! }
  let transactions = 0
  // The disk "fills up" once the first transaction has begun: the import stops at the next one.
  const failing = watched(db, () => {
    if (++transactions > 1) throw new DiskError('disk_full', 'no room left in this test')
  })
  await t.rejects(importFiles(failing, walked(files), options), { code: 'disk_full' })
  const kept = await count(db, 'SELECT count(*) AS n FROM pages')
  t.ok(kept > 0 && kept < NOTES, `the first transaction's pages are kept (${kept})`)
  // PostgreSQL writes a batch in one transaction; the embedded engine cut this one into parts.
  if (engine === 'pglite') t.ok(kept < 50, 'the embedded engine committed a part of the first batch')
  else t.equal(kept, 50, 'the server committed the first batch whole')
  const again = await importFiles(db, walked(files), options)
  t.same({ created: again.created, skipped: again.skipped, failed: again.failed }, { created: NOTES - kept, skipped: kept, failed: [] })
  t.equal(await count(db, 'SELECT count(*) AS n FROM pages'), NOTES)
  t.equal(await count(db, 'SELECT count(DISTINCT slug) AS n FROM pages'), NOTES)
  t.equal(await count(db, `SELECT count(*) AS n FROM (SELECT page_id, chunk_index FROM content_chunks GROUP BY page_id, chunk_index HAVING count(*) > 1) d`), 0, 'no chunk is stored twice')
  t.equal(await count(db, `SELECT count(*) AS n FROM pages p WHERE NOT EXISTS (SELECT 1 FROM content_chunks c WHERE c.page_id = p.id)`), 0, 'every page has its chunks')
})

engineTest(t, 'a search started while an import writes finishes before the import', async (t, { engine, db }) => {
  const files = notes(300)
  let started = 0
  const seen: { atSearchEnd: number | null } = { atSearchEnd: null }
  let searching: Promise<unknown> | null = null
  // One batch of every note: before parts, the embedded engine wrote it as one transaction.
  const importing = importFiles(
    watched(db, () => {
      started++
      searching ??= search(context(db, undefined), 'tomatoes garden', { limit: 5 }).then((response) => {
        seen.atSearchEnd = started
        return response
      })
    }),
    walked(files),
    { sourceId: 'default', embedder: null, batchFiles: 1000, readContent: async (f) => files.get(f.relativePath)! },
  )
  let importDone = false
  importing.then(
    () => (importDone = true),
    () => undefined,
  )
  await t.resolves(
    (async () => {
      while (searching === null) await new Promise<void>((resolve) => setImmediate(resolve))
      await searching
    })(),
  )
  t.equal(importDone, false, 'the import was still running when the search answered')
  const result = await importing
  t.equal(result.created, 300)
  if (engine === 'pglite') t.ok(seen.atSearchEnd !== null && seen.atSearchEnd < started, `the import began more transactions after the search (${seen.atSearchEnd} of ${started})`)
})
