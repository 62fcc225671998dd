import t from 'tap'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findPage, putPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { cliBrain } from '../helpers/cli.js'
import { engineTest } from '../helpers/engines.js'

function repoWithEscape(): { repo: string; outside: string } {
  const repo = mkdtempSync(join(tmpdir(), 'brain-escape-repo-'))
  const outside = mkdtempSync(join(tmpdir(), 'brain-escape-outside-'))
  symlinkSync(outside, join(repo, 'linked'))
  mkdirSync(join(repo, 'inside'))
  symlinkSync(join(repo, 'inside'), join(repo, 'alias'))
  return { repo, outside }
}

engineTest(t, 'a put through a folder that links out of the repository is refused and stores nothing', async (t, { db }) => {
  const { repo, outside } = repoWithEscape()
  for (const remote of [false, true]) {
    const ctx = { db, logger: silentLogger, repoPath: repo, remote, allowedSlugPrefixes: remote ? ['linked/', 'alias/'] : null }
    const slug = remote ? 'linked/deeper/escape-remote' : 'linked/escape'
    await t.rejects(putPage(ctx, { slug, content: '# Escape\n\nout\n' }), { code: 'path_outside_root' }, `refused (${remote ? 'MCP' : 'local'})`)
    t.equal(await findPage(db, 'default', slug), null, 'nothing stored')
    t.same(readdirSync(outside), [], 'nothing written outside, not even a folder')
  }
  const inside = await putPage({ db, logger: silentLogger, repoPath: repo, remote: false }, { slug: 'alias/fine', content: '# Fine\n' })
  t.equal(inside.write_through.written, true, 'a link that stays inside the repository is followed')
  t.ok(existsSync(join(repo, 'inside', 'fine.md')))
})

t.test('odd slugs: stored and read back, never an error after storing', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const repo = mkdtempSync(join(tmpdir(), 'brain-odd-slugs-'))
  t.equal((await brain.run(['config', 'set', 'sync.repo_path', repo])).code, 0)
  const dots = await brain.run(['put', '..notes', '--no-embed'], { input: '# Dots\n' })
  t.equal(dots.code, 0, dots.stderr)
  t.ok(existsSync(join(repo, '..notes.md')), 'written inside the repository')
  const help = await brain.run(['put', '--', '--help'], { input: '# Help page\n' })
  t.equal(help.code, 0, help.stderr)
  const read = await brain.run(['get', '--', '--help'])
  t.equal(read.code, 0, read.stderr)
  t.match(read.stdout, /Help page/, 'a page named --help is read while the service runs')
})

t.test('folders made inside a root never pass through a link out of it', async (t) => {
  const { containedDirectory } = await import('../../src/util/contained-path.js')
  const inbox = mkdtempSync(join(tmpdir(), 'brain-inbox-'))
  const outside = mkdtempSync(join(tmpdir(), 'brain-archive-outside-'))
  symlinkSync(outside, join(inbox, '.archived'))
  await t.rejects(containedDirectory(inbox, join(inbox, '.archived', '2026-01-01'), { create: true }), { code: 'path_outside_root' })
  t.same(readdirSync(outside), [], 'no folder was made outside')
  await containedDirectory(inbox, join(inbox, 'real', 'day'), { create: true, mode: 0o700 })
  t.ok(existsSync(join(inbox, 'real', 'day')), 'ordinary folders are made level by level')
})
