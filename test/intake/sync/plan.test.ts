// test-runner: shares a process
import t from 'tap'
import { createFileFilter } from '../../../src/intake/sources/index.js'
import { acceptPath, kindByExtension, slugForPath } from '../../../src/intake/sources/path-kind.js'
import { decideWalk, parseDiffRaw, parseLsTree, planFromDiff, planFromTree, type DiffEntry } from '../../../src/intake/sync/index.js'

const Z = '0'.repeat(40)
const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

function raw(...records: Array<[string, ...string[]]>): string {
  return records.map(([header, ...paths]) => [header, ...paths].join('\0') + '\0').join('')
}

t.test('parseDiffRaw reads statuses, scores, modes and both paths of renames', async (t) => {
  const out = raw(
    [`:000000 100644 ${Z} ${A} A`, 'notes/new.md'],
    [`:100644 100644 ${A} ${B} M`, 'dir with space/ü.md'],
    [`:100644 000000 ${A} ${Z} D`, 'old.md'],
    [`:100644 100644 ${A} ${B} R087`, 'a/from.md', 'b/to.md'],
    [`:100644 120000 ${A} ${B} T`, 'link.md'],
    [`:100644 100644 ${A} ${B} U`, 'conflict.md'],
  )
  const entries = parseDiffRaw(out)
  t.same(
    entries.map((e) => [e.status, e.srcPath, e.dstPath, e.score]),
    [
      ['A', 'notes/new.md', 'notes/new.md', null],
      ['M', 'dir with space/ü.md', 'dir with space/ü.md', null],
      ['D', 'old.md', 'old.md', null],
      ['R', 'a/from.md', 'b/to.md', 87],
      ['T', 'link.md', 'link.md', null],
    ],
    'unmerged entries are dropped',
  )
  t.equal(entries[0]!.dstSha, A)
  t.equal(entries[4]!.dstMode, '120000')
  t.same(parseDiffRaw(''), [])
  t.throws(() => parseDiffRaw('garbage\0'), /Unexpected git diff output/)
})

t.test('parseLsTree reads mode, type, sha, size and tab-separated paths', async (t) => {
  const out = `100644 blob ${A}     120\tnotes/a b.md\x00120000 blob ${B}      9\tlink.md\x00160000 commit ${B}       -\tvendor/sub\x00`
  t.same(parseLsTree(out), [
    { mode: '100644', type: 'blob', sha: A, size: 120, path: 'notes/a b.md' },
    { mode: '120000', type: 'blob', sha: B, size: 9, path: 'link.md' },
    { mode: '160000', type: 'commit', sha: B, size: null, path: 'vendor/sub' },
  ])
})

t.test('slugs of deleted and renamed paths follow the kind their name implies', async (t) => {
  t.equal(kindByExtension('People/Ada Lovelace.md'), 'markdown')
  t.equal(kindByExtension('src/App.tsx'), 'code')
  t.equal(kindByExtension('image.png'), null)
  t.equal(slugForPath('People/Ada Lovelace.md'), 'people/ada-lovelace', 'markdown: no extension, lower case, dashes')
  t.equal(slugForPath('src/Db/Open.ts'), 'src/Db/Open.ts', 'code: the path as it is')
  t.equal(slugForPath('image.png'), null)
  t.equal(slugForPath(`${'x/'.repeat(300)}a.md`), null, 'a path too long for a slug names no page')
})

t.test('acceptPath applies directory rules to every ancestor and the globs to the file', async (t) => {
  const md = createFileFilter({ strategy: 'markdown' })
  t.equal(acceptPath(md, 'notes/a.md'), 'markdown')
  t.equal(acceptPath(md, 'ops/deep/a.md'), null)
  t.equal(acceptPath(md, 'x/.raw/a.md'), null)
  t.equal(acceptPath(md, 'node_modules/pkg/a.md'), null)
  t.equal(acceptPath(md, '.obsidian/a.md'), null)
  const globbed = createFileFilter({ strategy: 'auto', include: ['docs/**/*.md', 'src/?.ts'], exclude: ['**/draft-*'] })
  t.equal(acceptPath(globbed, 'docs/a.md'), 'markdown', '**/ matches zero directories')
  t.equal(acceptPath(globbed, 'docs/x/y/a.md'), 'markdown')
  t.equal(acceptPath(globbed, 'docs/x/draft-a.md'), null)
  t.equal(acceptPath(globbed, 'src/a.ts'), 'code', '? matches one character')
  t.equal(acceptPath(globbed, 'src/ab.ts'), null)
})

function entry(status: DiffEntry['status'], srcPath: string, dstPath = srcPath, modes: [string, string] = ['100644', '100644']): DiffEntry {
  return { status, score: status === 'R' ? 90 : null, srcMode: modes[0], dstMode: modes[1], dstSha: status === 'D' ? Z : A, srcPath, dstPath }
}

t.test('planFromDiff: adds, modifications, deletions, renames and un-syncable paths', async (t) => {
  const filter = createFileFilter({ strategy: 'markdown' })
  const plan = planFromDiff(
    [
      entry('A', 'notes/new.md'),
      entry('M', 'notes/changed.md'),
      entry('D', 'notes/Gone Page.md'),
      entry('D', 'src/removed.ts'),
      entry('R', 'notes/old.md', 'notes/renamed.md'),
      entry('R', 'notes/to-ops.md', 'ops/now-hidden.md'),
      entry('R', 'ops/was-hidden.md', 'notes/visible.md'),
      entry('R', 'notes/Case.md', 'notes/case.md'),
      entry('A', 'README.md'),
      entry('A', 'image.png'),
      entry('T', 'notes/became-link.md', 'notes/became-link.md', ['100644', '120000']),
      entry('A', 'notes/link.md', 'notes/link.md', ['000000', '120000']),
    ],
    filter,
  )
  t.same(plan.imports.map((f) => f.path).sort(), ['notes/case.md', 'notes/changed.md', 'notes/new.md'])
  // A rename out of an excluded folder is still a move: with no old page, the new file is simply added.
  t.same(
    plan.moves.map((m) => [m.from.slug, m.to.path]),
    [
      ['notes/old', 'notes/renamed.md'],
      ['ops/was-hidden', 'notes/visible.md'],
    ],
  )
  t.same(plan.deletes.map((d) => d.slug).sort(), ['notes/became-link', 'notes/gone-page', 'notes/to-ops', 'src/removed.ts'])
  t.same(plan.ignored.sort(), ['README.md', 'image.png', 'notes/link.md'])
})

t.test('planFromDiff: a rename across kinds deletes the old page and imports the new file', async (t) => {
  const plan = planFromDiff([entry('R', 'notes/snippet.md', 'src/snippet.ts')], createFileFilter({ strategy: 'auto' }))
  t.same(
    plan.deletes.map((d) => d.slug),
    ['notes/snippet'],
  )
  t.same(
    plan.imports.map((f) => [f.path, f.kind]),
    [['src/snippet.ts', 'code']],
  )
  t.same(plan.moves, [])
})

t.test('planFromTree keeps regular syncable blobs only', async (t) => {
  const files = planFromTree(
    [
      { mode: '100644', type: 'blob', sha: A, size: 10, path: 'notes/a.md' },
      { mode: '100755', type: 'blob', sha: A, size: 10, path: 'bin/run.sh' },
      { mode: '120000', type: 'blob', sha: B, size: 5, path: 'notes/link.md' },
      { mode: '160000', type: 'commit', sha: B, size: null, path: 'vendor/lib' },
      { mode: '100644', type: 'blob', sha: A, size: 10, path: 'ops/runbook.md' },
    ],
    createFileFilter({ strategy: 'auto' }),
  )
  t.same(
    files.map((f) => [f.path, f.kind]),
    [
      ['notes/a.md', 'markdown'],
      ['bin/run.sh', 'code'],
    ],
  )
})

t.test('decideWalk: chunker version first, then the bookmark', async (t) => {
  const base = { lastCommit: A, head: A, storedChunkerVersion: '4', currentChunkerVersion: '4', full: false, bookmarkReachable: true }
  t.same(decideWalk(base), { kind: 'up_to_date' })
  t.same(decideWalk({ ...base, head: B }), { kind: 'incremental' })
  t.same(decideWalk({ ...base, storedChunkerVersion: '3' }), { kind: 'full', reason: 'chunker_version' }, 'a version bump walks even when HEAD is unchanged')
  t.same(decideWalk({ ...base, storedChunkerVersion: null }), { kind: 'full', reason: 'chunker_version' })
  t.same(decideWalk({ ...base, lastCommit: null }), { kind: 'full', reason: 'first_sync' })
  t.same(decideWalk({ ...base, full: true }), { kind: 'full', reason: 'full_requested' })
  t.same(decideWalk({ ...base, head: B, bookmarkReachable: false }), { kind: 'full', reason: 'bookmark_unreachable' })
})
