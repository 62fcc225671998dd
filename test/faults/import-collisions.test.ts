import t from 'tap'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findPage } from '../../src/pages/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { engineTest } from '../helpers/engines.js'

function oddFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-collide-'))
  writeFileSync(join(root, 'Collide.md'), '# Upper\n\nThe upper-case file.\n')
  writeFileSync(join(root, 'collide.md'), '# Lower\n\nThe lower-case file.\n')
  writeFileSync(join(root, 'Cafe\u0301 notes.md'), '# Café\n\nDecomposed accents in the name.\n')
  writeFileSync(join(root, 'latin1.md'), Buffer.from('# Latin\n\nna\xefve caf\xe9\n', 'latin1'))
  writeFileSync(join(root, 'plain.md'), '# Plain\n')
  symlinkSync(join(root, 'plain.md'), join(root, 'link.md'))
  execFileSync('mkfifo', [join(root, 'pipe.md')])
  return root
}

engineTest(t, 'every file is imported or reported, and a re-import changes nothing', async (t, { db }) => {
  const root = oddFolder()
  const options = { sourceId: 'default', embedder: null, strategy: 'markdown' as const }
  const first = await importFolder(db, root, options)
  t.same(
    first.failed.map((f) => [f.path, f.code]),
    [
      ['Collide.md', 'slug_collision'],
      ['collide.md', 'slug_collision'],
      ['latin1.md', 'invalid_utf8'],
    ],
    'both colliding files are reported, and the undecodable one',
  )
  t.match(first.failed[0]!.message, /collide\.md/, 'each names the other')
  t.equal(await findPage(db, 'default', 'collide'), null, 'neither silently wins')
  t.same(
    first.ignored,
    [
      { path: 'link.md', reason: 'symbolic_link' },
      { path: 'pipe.md', reason: 'not_a_regular_file' },
    ],
    'links and pipes are reported as skipped',
  )
  t.equal(first.created, 2)

  const again = await importFolder(db, root, options)
  t.same([again.created, again.updated, again.skipped], [0, 0, 2], 're-import is a no-op for every name and encoding')
  t.equal(again.failed.length, 3, 'the collision is reported again, not "updated"')
})
