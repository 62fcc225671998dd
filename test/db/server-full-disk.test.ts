/**
 * The server engine on a real small filesystem: a throwaway PostgreSQL cluster whose data
 * directory lives on a tmpfs the test mounts (root only). Once a file beside the cluster fills the
 * disk, PostgreSQL's own disk_full (53100) reaches the user as `DiskError disk_full` with advice,
 * reads go on, and once the file is gone the same brain writes again with every earlier page
 * intact. Without root, pg-driver's unit test covers the mapping of 53100.
 */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPostgres } from '../../src/db/pg-driver.js'
import { runBrain, stopService, type CliResult } from '../helpers/cli.js'
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js'
import { fillLeaving, mountTmpfs, stopClusterOnSmallDisk, unmount } from '../helpers/small-disk.js'

function errorOf(result: CliResult): { class: string; code: string; message: string; hint?: string } {
  return result.json<{ error: { class: string; code: string; message: string; hint?: string } }>().error
}

function notes(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-server-disk-notes-'))
  for (let i = 0; i < count; i++) writeFileSync(join(root, `note-${i}.md`), `# Note ${i}\n\n${`word${i} lorem ipsum dolor sit amet `.repeat(300)}\n`)
  return root
}

const mountPoint = mkdtempSync(join(tmpdir(), 'brain-small-pg-disk-'))
const mounted = mountTmpfs(mountPoint, '160m')

t.test('a full disk under PostgreSQL: disk_full with advice, reads go on, writes resume', { skip: mounted ? false : 'mounting a tmpfs needs root' }, async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-server-disk-home-'))
  const folder = notes(400)
  let cluster: PgCluster | null = null
  t.teardown(async () => {
    await stopService(home)
    if (cluster !== null) await stopClusterOnSmallDisk(cluster)
    await unmount(mountPoint)
    rmSync(mountPoint, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
    rmSync(folder, { recursive: true, force: true })
  })
  cluster = await startPgCluster({ parent: mountPoint, walSegmentMiB: 1 })
  const admin = await openPostgres({ url: cluster.adminUrl, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  await admin.exec('CREATE DATABASE brain')
  await admin.close()
  const url = cluster.adminUrl.replace(/\/postgres$/, '/brain')
  const env = { BRAIN_HOME: home, BRAIN_DATABASE_URL: url, BRAIN_NO_SERVICE: '0', BRAIN_SERVICE_IDLE_TIMEOUT: '10min', BRAIN_EMBEDDING_PROVIDER: 'local' }
  const run = (args: string[], input?: string) => runBrain(args, env, input)
  const init = await run(['init', '--json'])
  t.equal(init.code, 0, init.stderr)
  for (const name of ['heron', 'marsh', 'tide']) {
    const put = await run(['put', `notes/${name}`, '--no-embed', '--json'], `# ${name}\n\nThe ${name} note, kept through a full disk.`)
    t.equal(put.code, 0, put.stderr)
  }

  const filler = join(mountPoint, 'filler.bin')
  fillLeaving(mountPoint, filler, 256 * 1024)

  const put = await run(['put', 'notes/big', '--no-embed', '--json'], `# Big\n\n${'filler text, not to be stored '.repeat(40_000)}\n`)
  t.equal(put.code, 1, put.stdout)
  t.match(errorOf(put), { class: 'DiskError', code: 'disk_full', message: /PostgreSQL server/, hint: /PostgreSQL server's disk/ })
  t.notMatch(put.stderr, /\n\s+at /, 'no stack trace')
  const imported = await run(['import', folder, '--no-embed', '--json'])
  t.equal(imported.code, 1, imported.stdout)
  t.match(errorOf(imported), { class: 'DiskError', code: 'disk_full' })

  const listed = await run(['list', '--json'])
  t.equal(listed.code, 0, listed.stderr)
  t.same(
    listed
      .json<Array<{ slug: string }>>()
      .map((p) => p.slug)
      .filter((slug) => slug.startsWith('notes/'))
      .sort(),
    ['notes/heron', 'notes/marsh', 'notes/tide'],
    'reads work and nothing half-written shows',
  )
  t.match((await run(['get', 'notes/marsh'])).stdout, /The marsh note, kept through a full disk\./)

  rmSync(filler)
  const resumed = await run(['put', 'notes/new', '--no-embed', '--json'], '# New\n\nWritten once space is back.')
  t.equal(resumed.code, 0, resumed.stdout)
  t.match(resumed.json(), { status: 'created' })
  const again = await run(['import', folder, '--no-embed', '--json'])
  t.equal(again.code, 0, again.stdout)
  t.match(again.json(), { files: 400, failed: 0 }, 'with space freed the import completes')
  for (const name of ['heron', 'marsh', 'tide']) t.match((await run(['get', `notes/${name}`])).stdout, new RegExp(`The ${name} note, kept through a full disk\\.`))
})

if (!mounted) rmSync(mountPoint, { recursive: true, force: true })
