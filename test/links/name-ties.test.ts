// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { getLinks } from '../../src/links/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { engineTest } from '../helpers/engines.js'

const FILES: Record<string, string> = {
  'alpha/Tie.md': '# Alpha tie',
  'beta/Tie.md': '# Beta tie',
  'aaa/Even.md': '# First even',
  'bbb/Even.md': '# Second even',
  'note.md': 'See [[Tie]] and [[Even]].',
  'alpha/inner.md': 'Also [[Tie]].',
  'bbb/inner.md': 'And [[Even]].',
  'gamma/inner.md': 'Gamma [[Tie]] and [[Even]].',
}

engineTest(t, 'a bare name shared by notes: the same folder first, then the shortest path, then path order', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-ties-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  for (const [path, content] of Object.entries(FILES)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), `${content}\n`)
  }
  const imported = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(imported.failed.length, 0)
  const targets = async (slug: string) => (await getLinks(db, slug)).map((l) => [l.targetText, l.toSlug])
  t.same(
    await targets('note'),
    [
      ['Even', 'aaa/even'],
      ['Tie', 'beta/tie'],
    ],
    'from elsewhere: beta/tie is the shorter path; aaa/even and bbb/even are as long, and aaa comes first',
  )
  t.same(await targets('gamma/inner'), await targets('note'), 'the same from any other folder')
  t.same(await targets('alpha/inner'), [['Tie', 'alpha/tie']], 'a note in the same folder wins over a shorter path')
  t.same(await targets('bbb/inner'), [['Even', 'bbb/even']], 'and over path order')
})
