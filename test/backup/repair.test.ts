import { existsSync, mkdtempSync, readdirSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, writeBackupFile } from '../../src/backup/archive.js'
import { backupsDir, listBackups, pruneBackups } from '../../src/backup/backups.js'
import { checkBackups } from '../../src/doctor/backups.js'
import { cliBrain } from '../helpers/cli.js'
import { openTestDatabase } from '../helpers/engines.js'

const DAY = 86_400_000

/** A backup file with only a manifest's worth of content: enough for listing, pruning and the doctor. */
function fakeBackup(dir: string, name: string, createdAt: Date): void {
  writeBackupFile(
    join(dir, name),
    {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      engine: 'pglite',
      brain_version: '0.0.0',
      created_at: createdAt.toISOString(),
      pages: 1,
      content_hash_summary: 'x',
      schema_version: 1,
    },
    [{ name: 'database.tar.gz', data: Buffer.from('db') }],
  )
}

t.test('pruning keeps the newest routine backups and never a kept-aside copy', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-prune-'))
  const now = Date.now()
  for (let i = 0; i < 4; i++) fakeBackup(dir, `brain-${i}.brainbackup`, new Date(now - i * DAY))
  fakeBackup(dir, 'before-restore-old.brainbackup', new Date(now - 10 * DAY))
  const removed = pruneBackups(dir, 2)
  t.same(removed.map((p) => p.split('/').pop()).sort(), ['brain-2.brainbackup', 'brain-3.brainbackup'])
  t.same(readdirSync(dir).sort(), ['before-restore-old.brainbackup', 'brain-0.brainbackup', 'brain-1.brainbackup'])
})

t.test('doctor warns when the newest backup is older than twice backup.interval', async (t) => {
  const ctx = await openTestDatabase('pglite')
  t.teardown(ctx.cleanup)
  const home = mkdtempSync(join(tmpdir(), 'brain-doctor-backup-'))
  const dir = backupsDir(home)
  await import('node:fs').then((fs) => fs.mkdirSync(dir, { recursive: true }))
  const now = Date.now()
  fakeBackup(dir, 'brain-a.brainbackup', new Date(now - 1.5 * DAY))
  t.equal((await checkBackups(ctx.db, home, now)).status, 'ok', 'a day and a half with a one-day interval is fine')
  t.equal((await checkBackups(ctx.db, home, now + DAY)).status, 'warn', 'two and a half days is overdue')
})

t.test('an unopenable brain: every command hints repair, repair restores the newest backup, dream backs up and prunes', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'in-process' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['put', 'notes/kept', '--no-embed'], { input: '# Kept\n\nin the backup\n' })).code, 0)
  const made = await brain.run(['backup', '--json'])
  t.equal(made.code, 0, made.stderr)
  t.equal(made.json<{ pages: number }>().pages, 1)
  t.equal((await brain.run(['put', 'notes/later', '--no-embed'], { input: '# Later\n\nafter the backup\n' })).code, 0)

  const dataDir = join(brain.home, 'db')
  truncateSync(join(dataDir, 'global', 'pg_control'), 0)
  for (const args of [['list'], ['get', 'notes/kept'], ['doctor']]) {
    const failed = await brain.run(args)
    t.not(failed.code, 0, `${args[0]} fails`)
    t.match(failed.stdout + failed.stderr, /brain repair/, `${args[0]} says brain repair`)
    t.notMatch(failed.stdout + failed.stderr, /\n\s+at /, `${args[0]} shows no stack trace`)
  }

  const asked = await brain.run(['repair', '--json'])
  t.not(asked.code, 0, 'without --yes and no terminal it only asks')
  t.match(asked.stdout + asked.stderr, /repair --yes/)
  t.same(
    readdirSync(brain.home).filter((n) => n.startsWith('db.')),
    [],
    'nothing kept aside yet: nothing changed',
  )

  const repaired = await brain.run(['repair', '--yes', '--json'])
  t.equal(repaired.code, 0, repaired.stderr)
  const result = repaired.json<{ status: string; pages: number; kept_aside: string }>()
  t.equal(result.status, 'restored')
  t.equal(result.pages, 1)
  t.ok(existsSync(join(result.kept_aside, 'global')), 'the damaged directory is kept aside')
  t.equal((await brain.run(['get', 'notes/kept'])).code, 0, 'the brain opens again')

  t.equal((await brain.run(['config', 'set', 'backup.keep', '1'])).code, 0)
  t.equal((await brain.run(['config', 'get', 'backup.keep'])).stdout.includes('1'), true)
  const dreamed = await brain.run(['dream', '--phase', 'backup', '--json'])
  t.equal(dreamed.code, 0, dreamed.stderr)
  const routine = listBackups(backupsDir(brain.home)).filter((b) => b.file.startsWith('brain-'))
  t.equal(routine.length, 1, 'backup.keep 1 leaves one routine backup')
  t.ok(Date.parse(routine[0]!.created_at) > Date.parse(made.json<{ created_at: string }>().created_at), 'and it is the one the phase made')
})
