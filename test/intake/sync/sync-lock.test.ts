// test-runner: shares a process
import t from 'tap'
import { hostname } from 'node:os'
import { openPostgres } from '../../../src/db/pg-driver.js'
import { LockError } from '../../../src/errors/index.js'
import { listPages } from '../../../src/pages/index.js'
import { insertSource } from '../../../src/intake/sources/source-repository.js'
import { acquireSyncLock, runSync, type SourceSyncResult } from '../../../src/intake/sync/index.js'
import { removeSource } from '../../../src/intake/sync/remove-source.js'
import { engineTest } from '../../helpers/engines.js'
import { makeRepo } from './helpers.js'

function manyNotes(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`notes/n${i}.md`, `# Note ${i}\n\nBody ${i}.\n`]))
}

engineTest(t, 'two concurrent syncs of one source never interleave: the second is refused', async (t, { db }) => {
  const repo = makeRepo(manyNotes(40))
  await insertSource(db, { id: 'c', localPath: repo.dir })
  const outcomes = await Promise.allSettled([runSync(db, { sourceId: 'c' }, { embedder: null, holder: 'first' }), runSync(db, { sourceId: 'c' }, { embedder: null, holder: 'second' })])
  const fulfilled = outcomes.filter((o): o is PromiseFulfilledResult<SourceSyncResult> => o.status === 'fulfilled')
  const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
  t.equal(fulfilled.length, 1)
  t.equal(rejected.length, 1)
  t.type(rejected[0]!.reason, LockError)
  t.equal(rejected[0]!.reason.code, 'sync_in_progress')
  t.match(rejected[0]!.reason.message, /already being synced by (first|second) \(pid \d+ on /, 'the refusal names the holder')
  t.equal(fulfilled[0]!.value.added, 40)
  t.equal((await db.query('SELECT 1 FROM sync_locks')).rowCount, 0, 'the lock is released')
  const after = (await runSync(db, { sourceId: 'c' }, { embedder: null, holder: 'third' })) as SourceSyncResult
  t.equal(after.status, 'up_to_date', 'the next sync runs once the first is done')
  t.equal((await listPages(db, { sourceId: 'c', limit: 100 })).length, 40)
})

engineTest(t, 'a lock held elsewhere refuses; a dead or stale holder is taken over', async (t, { db }) => {
  await insertSource(db, { id: 's', localPath: '/nonexistent-for-lock-test' })
  const insertHolder = (pid: number, host: string, ageSeconds: number) =>
    db.query(`INSERT INTO sync_locks (source_id, token, holder, pid, hostname, heartbeat_at) VALUES ('s', 'other', 'sync job 7', $1, $2, now() - make_interval(secs => $3))`, [pid, host, ageSeconds])
  await insertHolder(process.ppid, 'another-machine', 5)
  await t.rejects(acquireSyncLock(db, 's', { holder: 'me' }), { code: 'sync_in_progress', message: /sync job 7 \(pid \d+ on another-machine/ })
  await t.rejects(removeSource(db, 's'), { code: 'sync_in_progress' }, 'a source is not removed under a running sync')

  await db.query('DELETE FROM sync_locks')
  await insertHolder(4_000_000, 'another-machine', 600)
  const stale = await acquireSyncLock(db, 's', { holder: 'me' })
  const { rows } = await db.query<{ holder: string }>('SELECT holder FROM sync_locks')
  t.same(rows, [{ holder: 'me' }], 'a heartbeat older than the stale limit is taken over')
  await stale.release()

  await insertHolder(4_000_001, hostname(), 1)
  const dead = await acquireSyncLock(db, 's', { holder: 'me', isAlive: () => false })
  t.ok(dead, 'a holder process that died on this host is replaced at once')
  await dead.release()
  t.equal((await db.query('SELECT 1 FROM sync_locks')).rowCount, 0)
})

engineTest(t, 'the lock holds across connections on the server engine', async (t, { engine, db, url }) => {
  if (engine !== 'postgres' || !url) {
    t.pass('the embedded engine has one process; in-process exclusion is tested above')
    return
  }
  const other = await openPostgres({ url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(() => other.close())
  await insertSource(db, { id: 'x', localPath: '/nowhere' })
  const held = await acquireSyncLock(other, 'x', { holder: 'process B' })
  await t.rejects(acquireSyncLock(db, 'x', { holder: 'process A' }), { code: 'sync_in_progress', message: /process B/ })
  await held.release()
  const mine = await acquireSyncLock(db, 'x', { holder: 'process A' })
  await mine.release()
})
