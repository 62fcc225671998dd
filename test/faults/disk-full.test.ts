/**
 * A full disk is an error with advice, never a hang: on a small tmpfs (mounted here; the tests
 * run as root on the project's machines), `init` on a disk too small, and an import and a put
 * that fill the disk, each end with `disk_full` while the service keeps answering; once space is
 * freed the brain works again with every earlier page intact.
 */
import t, { type Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBrain, stopService } from '../helpers/cli.js'

function mountTmpfs(t: Test, megabytes: number): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'brain-small-disk-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir])
  if (mounted.status !== 0) return null
  t.teardown(() => {
    spawnSync('umount', ['-l', dir])
  })
  return dir
}

/** Fills the disk with one file until about `leaveBytes` remain; returns its path. */
function fill(dir: string, leaveBytes: number): string {
  const info = statfsSync(dir)
  const free = info.bavail * info.bsize
  const filler = join(dir, 'filler.bin')
  writeFileSync(filler, Buffer.alloc(Math.max(0, free - leaveBytes)))
  return filler
}

function notes(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-disk-notes-'))
  for (let i = 0; i < count; i++) writeFileSync(join(root, `note-${i}.md`), `# Note ${i}\n\n${`word${i} lorem ipsum dolor sit amet `.repeat(300)}\n`)
  return root
}

t.test('a full disk: clear errors, a responsive service, nothing lost', { skip: process.getuid?.() !== 0 ? 'needs root to mount a tmpfs' : false }, async (t) => {
  const tiny = mountTmpfs(t, 8)
  const disk = mountTmpfs(t, 90)
  if (tiny === null || disk === null) return void t.plan(0, 'a tmpfs cannot be mounted on this machine')
  const init = await runBrain(['init', '--json'], { BRAIN_HOME: join(tiny, 'home') })
  t.equal(init.code, 1)
  t.match(init.json(), { error: { class: 'DiskError', code: 'disk_full', hint: /Free some space/ } }, 'init on a disk too small says the disk is full')

  const home = join(disk, 'home')
  mkdirSync(home)
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_SERVICE_IDLE_TIMEOUT: '10min' }
  t.teardown(() => stopService(home))
  t.equal((await runBrain(['put', 'notes/kept', '--no-embed'], env, '# Kept\n\nWritten while there was room.\n')).code, 0)
  const filler = fill(disk, 2 * 1024 * 1024)
  const folder = notes(400)

  const imported = await runBrain(['import', folder, '--no-embed', '--json'], env)
  t.equal(imported.code, 1, 'the import stops')
  t.match(imported.json(), { error: { class: 'DiskError', code: 'disk_full' } })
  const put = await runBrain(['put', 'notes/more', '--no-embed', '--json'], env, `# More\n\n${'filler text '.repeat(50_000)}\n`)
  t.match(put.json(), { error: { code: 'disk_full' } }, 'a put on the full disk says so too')
  t.equal((await runBrain(['service', 'status'], env)).code, 0, 'the service still answers')
  t.match((await runBrain(['get', 'notes/kept'], env)).stdout, /Written while there was room/, 'earlier pages can be read')

  rmSync(filler)
  const again = await runBrain(['import', folder, '--no-embed', '--json'], env)
  t.equal(again.code, 0, again.stderr)
  t.match(again.json(), { files: 400, failed: 0 }, 'with space freed the import completes')
  t.equal(again.json<{ created: number; skipped: number }>().created + again.json<{ skipped: number }>().skipped, 400, 'pages stored before the disk filled are kept')
  t.match((await runBrain(['get', 'notes/kept'], env)).stdout, /Written while there was room/)
})
