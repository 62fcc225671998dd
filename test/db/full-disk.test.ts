/**
 * The embedded brain on a real small filesystem (a tmpfs the test mounts, which needs root):
 * filled by a file beside the brain, every write through the resident service ends in
 * disk_full within one command, reads and the service keep answering, and once the file is gone
 * the same brain writes again with every earlier page intact. Without root the injected
 * low-space reading in free-space.test.ts covers the same rules.
 */
import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBrain, stopService, type CliResult } from '../helpers/cli.js'
import { makeRepo } from '../intake/sync/helpers.js'
import { freeBytes, mountTmpfs, unmount } from '../helpers/small-disk.js'

const MiB = 1024 * 1024
const RESERVE = 32 * MiB

/** Writes a file that leaves `leave` bytes free on the filesystem holding `dir`. */
function fillLeaving(dir: string, path: string, leave: number): void {
  const size = freeBytes(dir) - leave
  if (size <= 0) return
  const block = Buffer.alloc(MiB, 7)
  const blocks = Math.floor(size / MiB)
  const parts: Buffer[] = []
  for (let i = 0; i < blocks; i++) parts.push(block)
  parts.push(Buffer.alloc(size % MiB, 7))
  writeFileSync(path, Buffer.concat(parts))
}

function errorOf(result: CliResult): { class: string; code: string; message: string } {
  return result.json<{ error: { class: string; code: string; message: string } }>().error
}

const mountPoint = mkdtempSync(join(tmpdir(), 'brain-small-disk-'))
const mounted = mountTmpfs(mountPoint, '128m')

t.test('a full disk under the resident service: disk_full at once, reads go on, writes resume', { skip: mounted ? false : 'mounting a tmpfs needs root' }, async (t) => {
  const home = join(mountPoint, 'brain')
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_SERVICE_IDLE_TIMEOUT: '10min', BRAIN_EMBEDDING_PROVIDER: 'local' }
  t.teardown(async () => {
    await stopService(home)
    await unmount(mountPoint)
    rmSync(mountPoint, { recursive: true, force: true })
  })
  const run = (args: string[], input?: string) => runBrain(args, env, input)
  t.equal((await run(['init', '--json'])).code, 0)
  for (const name of ['heron', 'marsh', 'tide']) {
    const put = await run(['put', `notes/${name}`, '--no-embed', '--json'], `# ${name}\n\nThe ${name} note, kept through a full disk.`)
    t.equal(put.code, 0, put.stderr)
  }
  const repo = makeRepo({ 'notes/a.md': '# A\n\nFrom the repository.\n' })
  t.equal((await run(['sources', 'add', 'repo', '--path', repo.dir, '--json'])).code, 0)
  const folder = join(mountPoint, 'incoming')
  mkdirSync(folder)
  for (let i = 0; i < 5; i++) writeFileSync(join(folder, `n${i}.md`), `# Incoming ${i}\n\nA note to import.\n`)

  const filler = join(mountPoint, 'filler.bin')
  fillLeaving(mountPoint, filler, RESERVE - 12 * MiB)

  const put = await run(['put', 'notes/new', '--no-embed', '--json'], '# New\n\nNot written.')
  t.equal(put.code, 1)
  t.match(errorOf(put), { class: 'DiskError', code: 'disk_full', message: /MiB free/ })
  t.notMatch(put.stderr, /\n\s+at /, 'no stack trace')
  const imported = await run(['import', folder, '--no-embed', '--json'])
  t.equal(imported.code, 1, imported.stdout)
  t.match(errorOf(imported), { code: 'disk_full' })
  const synced = await run(['sync', '--source', 'repo', '--no-embed', '--json'])
  t.equal(synced.code, 1, synced.stdout)
  t.match(errorOf(synced), { code: 'disk_full' })

  const status = await run(['service', 'status', '--json'])
  t.match(status.json(), { running: true }, 'the service keeps answering')
  const listed = await run(['list', '--json'])
  t.same(
    listed
      .json<Array<{ slug: string }>>()
      .map((p) => p.slug)
      .sort(),
    ['notes/heron', 'notes/marsh', 'notes/tide'],
    'reads work and nothing half-written shows',
  )
  t.match((await run(['get', 'notes/marsh'])).stdout, /The marsh note, kept through a full disk\./)
  const jobs = await run(['jobs', 'list', '--json'])
  t.notOk(
    jobs.json<Array<{ status: string }>>().some((j) => j.status === 'active' || j.status === 'waiting'),
    'no job is left running or waiting: each refusal reached its caller',
  )

  rmSync(filler)
  const resumed = await run(['put', 'notes/new', '--no-embed', '--json'], '# New\n\nWritten once space is back.')
  t.match(resumed.json(), { status: 'created' })
  t.match((await run(['import', folder, '--no-embed', '--json'])).json(), { created: 5 })
  t.match((await run(['sync', '--source', 'repo', '--no-embed', '--json'])).json(), { status: 'synced', added: 1 })
  for (const name of ['heron', 'marsh', 'tide']) t.match((await run(['get', `notes/${name}`])).stdout, new RegExp(`The ${name} note, kept through a full disk\\.`))
})

if (!mounted) rmSync(mountPoint, { recursive: true, force: true })
