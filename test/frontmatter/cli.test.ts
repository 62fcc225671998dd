/**
 * `brain frontmatter validate|audit|install-hook` through the real binary, against real
 * folders and real git repositories.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BRAIN_BIN, cliBrain, servedCliMode } from '../helpers/cli.js'

const GOOD = '---\ntitle: Good\n---\n# Good\n'

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-fm-'))
  write(root, files)
  return root
}

function gitRepo(files: Record<string, string>): string {
  const root = tree(files)
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root })
  return root
}

interface Issue {
  code: string
  line: number
  rule: string | null
  fixable: boolean
}
interface Result {
  path: string
  errors: Issue[]
  fixed: string[]
  remaining: Issue[]
  backup: string | null
}
interface Report {
  status: string
  files: number
  files_with_issues: number
  counts: Record<string, number>
  results: Result[]
  skipped: string[]
}

t.test('validate scans a folder with the sync filter and reports each code', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const root = tree({
    'good.md': GOOD,
    'open.md': '# no front matter\n',
    'close.md': '---\ntitle: C\n\n# C\n',
    'yaml.md': '---\ntitle: [Y\n---\n',
    'nested.md': '---\ntitle: "a "b" c"\n---\n',
    'empty.md': '---\n---\nbody\n',
    'nul.md': '---\ntitle: N\n---\nx\u0000y\n',
    'README.md': '# readme, no front matter\n',
    '.raw/raw.md': 'no front matter',
    'node_modules/pkg/x.md': 'no front matter',
    'notes.txt': 'not markdown',
  })
  symlinkSync(join(root, 'open.md'), join(root, 'link.md'))
  const res = await brain.run(['frontmatter', 'validate', root, '--json'])
  t.equal(res.code, 1, 'problems: exit 1')
  const report = res.json<Report>()
  t.equal(report.files, 7, 'README, .raw/, node_modules, .txt and the symlink are left out')
  t.same(report.counts, { MISSING_OPEN: 1, MISSING_CLOSE: 1, YAML_PARSE: 1, SLUG_MISMATCH: 0, NULL_BYTES: 1, NESTED_QUOTES: 1, EMPTY_FRONTMATTER: 1 })
  const byFile = Object.fromEntries(report.results.map((r) => [r.path.slice(root.length + 1), r.errors.map((e) => [e.code, e.line, e.rule])]))
  t.same(byFile['open.md'], [['MISSING_OPEN', 1, null]], 'MISSING_OPEN has no lint rule')
  t.same(byFile['close.md'], [['MISSING_CLOSE', 1, 'frontmatter-missing-close']])
  t.same(byFile['yaml.md'], [['YAML_PARSE', 2, 'frontmatter-yaml-parse']])
  t.same(byFile['nul.md'], [['NULL_BYTES', 4, 'frontmatter-null-bytes']])
  t.equal(readFileSync(join(root, 'close.md'), 'utf8'), '---\ntitle: C\n\n# C\n', 'validate alone changes nothing')

  const clean = await brain.run(['frontmatter', 'validate', join(root, 'good.md'), '--json'])
  t.equal(clean.code, 0)
  t.match(clean.json<Report>(), { status: 'ok', files: 1, results: [] })

  const lint = await brain.run(['frontmatter', 'validate', join(root, 'open.md'), join(root, 'good.md'), '--lint', '--no-json'])
  t.equal(lint.code, 0, '--lint ignores a file without front matter')
  const human = await brain.run(['frontmatter', 'validate', join(root, 'close.md'), '--no-json'])
  t.equal(human.code, 1)
  t.match(human.stdout, /close\.md:1: MISSING_CLOSE/)
  t.match(human.stdout, /1 fixable with --fix/)

  const missing = await brain.run(['frontmatter', 'validate', join(root, 'nope.md'), '--json'])
  t.equal(missing.code, 1)
  t.match(missing.json(), { error: { class: 'NotFoundError', code: 'path_not_found' } })
  const notMd = await brain.run(['frontmatter', 'validate', join(root, 'notes.txt'), '--json'])
  t.match(notMd.json(), { error: { class: 'UsageError', code: 'not_markdown' } })
})

t.test('--fix repairs the four fixable codes inside a source, keeps .bak, and leaves the rest', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const files = {
    'notes/close.md': '---\ntitle: C\n\n# C\n',
    'notes/nested.md': '---\ntitle: "a "b" c"\n---\n',
    'notes/nul.md': '---\ntitle: N\n---\nx\u0000y\n',
    'notes/slug.md': '---\ntitle: S\nslug: somewhere/else\n---\n',
    'notes/open.md': '# no front matter\n',
    'notes/empty.md': '---\n---\nbody\n',
    'notes/drafts/excluded.md': '---\ntitle: X\n\nbody\n',
    'README.md': 'no front matter\n',
  }
  const root = tree(files)
  t.equal((await brain.run(['sources', 'add', 'notes', '--path', root, '--exclude', 'notes/drafts/**', '--json'])).code, 0)
  const sub = await brain.run(['frontmatter', 'validate', join(root, 'notes'), '--json'])
  t.equal(sub.json<Report>().files, 6, "a folder inside a source is filtered by the source's own globs")

  const dry = await brain.run(['frontmatter', 'validate', root, '--fix', '--dry-run', '--json'])
  t.equal(dry.code, 1, 'a dry run leaves the problems in place')
  const preview = dry.json<Omit<Report, 'results'> & { results: (Result & { change: { added: string[] } | null })[] }>()
  t.same(
    preview.results
      .filter((r) => r.fixed.length > 0)
      .map((r) => r.fixed[0])
      .sort(),
    ['MISSING_CLOSE', 'NESTED_QUOTES', 'NULL_BYTES', 'SLUG_MISMATCH'],
  )
  t.same(preview.results.find((r) => r.path.endsWith('slug.md'))!.change!.added, ['slug: notes/slug'], 'shows what would change')
  for (const [rel, text] of Object.entries(files)) t.equal(readFileSync(join(root, rel), 'utf8'), text, `dry run left ${rel} alone`)
  t.notOk(existsSync(join(root, 'notes/close.md.bak')))

  chmodSync(join(root, 'notes/slug.md'), 0o640)
  const fixed = await brain.run(['frontmatter', 'validate', root, '--fix', '--json'])
  t.equal(fixed.code, 1, 'MISSING_OPEN and EMPTY_FRONTMATTER remain')
  const report = fixed.json<Report>()
  t.same(report.results.flatMap((r) => r.remaining.map((e) => e.code)).sort(), ['EMPTY_FRONTMATTER', 'MISSING_OPEN'])
  t.equal(readFileSync(join(root, 'notes/close.md'), 'utf8'), '---\ntitle: C\n---\n\n# C\n')
  t.equal(readFileSync(join(root, 'notes/nested.md'), 'utf8'), '---\ntitle: "a \\"b\\" c"\n---\n')
  t.equal(readFileSync(join(root, 'notes/nul.md'), 'utf8'), '---\ntitle: N\n---\nxy\n')
  t.equal(readFileSync(join(root, 'notes/slug.md'), 'utf8'), '---\ntitle: S\nslug: notes/slug\n---\n')
  t.equal(spawnSync('stat', ['-c', '%a', join(root, 'notes/slug.md')], { encoding: 'utf8' }).stdout.trim(), '640', 'the file mode is kept')
  for (const rel of ['notes/close.md', 'notes/nested.md', 'notes/nul.md', 'notes/slug.md']) {
    t.equal(readFileSync(join(root, `${rel}.bak`), 'utf8'), files[rel as keyof typeof files], `${rel}.bak holds the original`)
  }
  t.equal(readFileSync(join(root, 'notes/open.md'), 'utf8'), files['notes/open.md'], 'a non-fixable file is not rewritten')
  t.notOk(existsSync(join(root, 'notes/open.md.bak')))
  t.equal(readFileSync(join(root, 'notes/drafts/excluded.md'), 'utf8'), files['notes/drafts/excluded.md'], 'an excluded file is not touched')

  const again = await brain.run(['frontmatter', 'validate', join(root, 'notes/close.md'), '--json'])
  t.equal(again.code, 0, 'the repaired file validates')
})

t.test('--fix outside every source is refused by the path guard; nothing is written', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const source = tree({ 'a.md': GOOD })
  const outside = tree({ 'broken.md': '---\ntitle: B\n\nbody\n' })
  t.equal((await brain.run(['sources', 'add', 'notes', '--path', source, '--json'])).code, 0)
  const res = await brain.run(['frontmatter', 'validate', outside, '--fix', '--json'])
  t.equal(res.code, 1)
  t.match(res.json(), { error: { class: 'ValidationError', code: 'fix_outside_sources' } })
  t.equal(readFileSync(join(outside, 'broken.md'), 'utf8'), '---\ntitle: B\n\nbody\n')
  t.notOk(existsSync(join(outside, 'broken.md.bak')))
  const file = await brain.run(['frontmatter', 'validate', join(outside, 'broken.md'), '--fix', '--json'])
  t.match(file.json(), { error: { code: 'fix_outside_sources' } }, 'a single file too')
  const noBrain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => noBrain.cleanup())
  const unconfigured = await noBrain.run(['frontmatter', 'validate', outside, '--fix', '--json'])
  t.match(unconfigured.json(), { error: { code: 'fix_outside_sources' } }, 'without a brain there is no source to fix in')
  // The resident service opens its home's brain when it starts; in-process nothing is created.
  if (noBrain.env.BRAIN_NO_SERVICE === '1') t.notOk(existsSync(join(noBrain.env.BRAIN_HOME!, 'db')), 'validate does not create a brain')
})

t.test('audit: per-source rollup by code, read-only; no brain says to initialize one', async (t) => {
  const empty = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => empty.cleanup())
  for (const command of [
    ['frontmatter', 'audit'],
    ['frontmatter', 'install-hook'],
  ]) {
    const res = await empty.run([...command, '--json'])
    t.equal(res.code, 1)
    t.match(res.json(), { error: { class: 'ConfigError', code: 'no_brain_configured', hint: /brain init/ } }, command.join(' '))
  }
  if (empty.env.BRAIN_NO_SERVICE === '1') t.notOk(existsSync(join(empty.env.BRAIN_HOME!, 'db')), 'no brain was created as a side effect')
  // An embedded brain created as a side effect (here by `brain list`), never initialized and
  // holding nothing, is no brain either.
  t.equal((await empty.run(['list', '--json'])).code, 0)
  t.match((await empty.run(['frontmatter', 'audit', '--json'])).json(), { error: { code: 'no_brain_configured' } })

  const brain = await cliBrain('postgres', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const notes = tree({ 'a.md': GOOD, 'b.md': '---\ntitle: [\n---\n', 'c.md': '---\ntitle: C\n\nbody\n', 'd.md': '---\ntitle: D\n\nbody\n', 'ops/x.md': 'none' })
  const work = tree({ 'w.md': '# none\n' })
  await brain.run(['sources', 'add', 'notes', '--path', notes, '--json'])
  await brain.run(['sources', 'add', 'work', '--path', work, '--json'])
  const res = await brain.run(['frontmatter', 'audit', '--json'])
  t.equal(res.code, 0)
  const report = res.json<{ sources: { source_id: string; files: number; files_with_issues: number; counts: Record<string, number>; issues: unknown[] }[] }>()
  const notesAudit = report.sources.find((s) => s.source_id === 'notes')!
  t.match(notesAudit, { files: 4, files_with_issues: 3, counts: { YAML_PARSE: 1, MISSING_CLOSE: 2, MISSING_OPEN: 0 } })
  t.equal(notesAudit.issues.length, 3)
  t.match(
    report.sources.find((s) => s.source_id === 'work'),
    { files: 1, counts: { MISSING_OPEN: 1 } },
  )
  t.equal(readFileSync(join(notes, 'c.md'), 'utf8'), '---\ntitle: C\n\nbody\n', 'audit never writes')
  const one = await brain.run(['frontmatter', 'audit', '--source', 'work', '--json'])
  t.same(
    one.json<{ sources: { source_id: string }[] }>().sources.map((s) => s.source_id),
    ['work'],
  )
  const unknown = await brain.run(['frontmatter', 'audit', '--source', 'nope', '--json'])
  t.match(unknown.json(), { error: { code: 'source_not_found' } })
  const human = await brain.run(['frontmatter', 'audit', '--no-json'])
  t.match(human.stdout, /notes \(.*\): 4 file\(s\), 3 with problems: MISSING_CLOSE 2, YAML_PARSE 1/)
})

function git(cwd: string, args: string[], env: Record<string, string>) {
  return spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, env: { ...env, HOME: cwd }, encoding: 'utf8' })
}

t.test('install-hook: install, refuse, --force with .bak, uninstall, and the hook itself', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const repo = gitRepo({ 'a.md': GOOD })
  const plain = tree({ 'b.md': GOOD })
  await brain.run(['sources', 'add', 'repo', '--path', repo, '--json'])
  await brain.run(['sources', 'add', 'plain', '--path', plain, '--json'])
  const hook = join(repo, '.git', 'hooks', 'pre-commit')

  const installed = await brain.run(['frontmatter', 'install-hook', '--json'])
  t.equal(installed.code, 0)
  const actions = installed.json<{ results: { source_id: string; action: string; hook_path: string | null }[] }>().results
  t.same(
    actions.map((r) => [r.source_id, r.action]),
    [
      ['default', 'skipped_no_path'],
      ['plain', 'skipped_not_git'],
      ['repo', 'installed'],
    ],
  )
  t.equal(actions[2]!.hook_path, hook)
  t.ok(spawnSync('test', ['-x', hook]).status === 0, 'the hook is executable')

  // The hook, with a brain on PATH: a broken staged file stops the commit.
  const bin = mkdtempSync(join(tmpdir(), 'brain-bin-'))
  writeFileSync(join(bin, 'brain'), `#!/bin/sh\nexec "${process.execPath}" "${BRAIN_BIN}" "$@"\n`, { mode: 0o755 })
  const withBrain = { ...brain.env, PATH: `${bin}:/usr/bin:/bin` }
  write(repo, { 'broken.md': '---\ntitle: B\n\nbody\n', 'plain note.md': '# no front matter is fine for lint\n' })
  git(repo, ['add', '.'], withBrain)
  const stopped = git(repo, ['commit', '-q', '-m', 'broken'], withBrain)
  t.not(stopped.status, 0, 'the commit is stopped')
  t.match(stopped.stdout + stopped.stderr, /frontmatter-missing-close/)
  // Without brain on PATH the hook warns and lets the commit through.
  const noBrain = { ...brain.env, PATH: '/usr/bin:/bin' }
  const through = git(repo, ['commit', '-q', '-m', 'broken anyway'], noBrain)
  t.equal(through.status, 0, through.stderr)
  t.match(through.stderr, /not on PATH/)
  write(repo, { 'fine.md': GOOD })
  git(repo, ['add', 'fine.md'], withBrain)
  t.equal(git(repo, ['commit', '-q', '-m', 'fine'], withBrain).status, 0, 'a clean commit passes the hook')

  const reinstalled = await brain.run(['frontmatter', 'install-hook', '--source', 'repo', '--json'])
  t.match(reinstalled.json(), { results: [{ action: 'updated' }] }, "brain's own hook is simply updated")

  const foreign = '#!/bin/sh\necho mine\n'
  writeFileSync(hook, foreign, { mode: 0o755 })
  const refused = await brain.run(['frontmatter', 'install-hook', '--source', 'repo', '--json'])
  t.equal(refused.code, 1)
  t.match(refused.json(), { results: [{ action: 'refused' }] })
  t.equal(readFileSync(hook, 'utf8'), foreign, 'the existing hook is untouched')

  const forced = await brain.run(['frontmatter', 'install-hook', '--source', 'repo', '--force', '--json'])
  t.equal(forced.code, 0)
  t.match(forced.json(), { results: [{ action: 'replaced', backup_path: `${hook}.bak` }] })
  t.equal(readFileSync(`${hook}.bak`, 'utf8'), foreign)
  t.match(readFileSync(hook, 'utf8'), /brain-frontmatter-hook/)

  const removed = await brain.run(['frontmatter', 'install-hook', '--source', 'repo', '--uninstall', '--json'])
  t.match(removed.json(), { results: [{ action: 'restored' }] })
  t.equal(readFileSync(hook, 'utf8'), foreign, 'the previous hook is back')
  t.notOk(existsSync(`${hook}.bak`))
  const notOurs = await brain.run(['frontmatter', 'install-hook', '--source', 'repo', '--uninstall', '--json'])
  t.match(notOurs.json(), { results: [{ action: 'not_ours' }] })
  t.equal(readFileSync(hook, 'utf8'), foreign)
})
