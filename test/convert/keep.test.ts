// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

const shopping = {
  color: 'DEFAULT',
  isTrashed: false,
  isPinned: true,
  isArchived: false,
  title: 'Shopping',
  textContent: '',
  listContent: [
    { textHtml: 'Oat milk', text: 'Oat milk', isChecked: false },
    { textHtml: 'Lighthouse postcard', text: 'Lighthouse postcard', isChecked: true },
  ],
  labels: [{ name: 'Home' }, { name: 'Errands' }],
  annotations: [{ description: '', source: 'WEBLINK', title: 'Harbour market', url: 'https://example.org/market' }],
  userEditedTimestampUsec: 1_700_000_000_000_000,
  createdTimestampUsec: 1_690_000_000_000_000,
}

const untitled = {
  isTrashed: false,
  title: '',
  textContent: 'Call the harbour office\nabout the mooring',
  attachments: [{ filePath: '1a2b.jpg', mimetype: 'image/jpeg' }],
  userEditedTimestampUsec: 1_700_000_000_000_000,
  createdTimestampUsec: 1_700_000_000_000_000,
}

t.test('a Google Keep note from Takeout: list as tasks, labels as tags, links, times', async (t) => {
  t.equal(converterFor('Takeout/Keep/Shopping.json'), 'keep')
  t.equal(converterFor('Takeout/Keep/Shopping.html'), 'keep')
  await t.rejects(convertBounded({ bytes: new TextEncoder().encode('<html></html>'), name: 'Takeout/Keep/Shopping.html' }), { code: 'convert_copy' }, "the note's HTML copy is left alone")
  t.equal(converterFor('project/Keep/settings.json'), null, 'a folder named Keep outside Takeout is not Keep')
  const r = await convertBounded({ bytes: bytes(shopping), name: 'Takeout/Keep/Shopping.json' })
  t.equal(r.format, 'keep')
  t.same(
    r.drafts.map((d) => [d.title, d.frontmatter]),
    [['Shopping', { type: 'note', created: '2023-07-22T04:26:40.000Z', updated: '2023-11-14T22:13:20.000Z', tags: ['Home', 'Errands'], pinned: true }]],
  )
  t.equal(r.drafts[0]!.body, '# Shopping\n\n- [ ] Oat milk\n- [x] Lighthouse postcard\n\n- [Harbour market](https://example.org/market)\n')
  const plain = await convertBounded({ bytes: bytes(untitled), name: 'Takeout/Keep/2023-11-14T22_13_20.000-05_00.json' })
  t.equal(plain.drafts[0]!.title, 'Call the harbour office', 'an untitled note is named by its first line')
  t.match(plain.drafts[0]!.body, /about the mooring\n\n\(attached: 1a2b\.jpg\)/)
  await t.rejects(convertBounded({ bytes: bytes({ ...shopping, isTrashed: true }), name: 'Takeout/Keep/Old.json' }), { code: 'convert_trashed' })
  await t.rejects(convertBounded({ bytes: bytes({ labels: [] }), name: 'Takeout/Keep/Labels.json' }), { code: 'convert_unsupported' })
})

engineTest(t, 'a Takeout folder: each Keep note one page, its HTML copy and trashed notes left out', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-keep-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'Takeout', 'Keep'), { recursive: true })
  await writeFile(join(root, 'Takeout', 'Keep', 'Shopping.json'), JSON.stringify(shopping))
  await writeFile(join(root, 'Takeout', 'Keep', 'Shopping.html'), '<html><head><title>Shopping</title></head><body><p>Oat milk</p></body></html>')
  await writeFile(join(root, 'Takeout', 'Keep', 'Old.json'), JSON.stringify({ ...shopping, title: 'Old', isTrashed: true }))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.created, 1)
  t.same([result.documentCounts.trashed, result.documentCounts.copies], [1, 1], "a note in Keep's trash and the HTML copy are counted, not imported")
  const page = await findPage(db, 'default', 'takeout/keep/shopping')
  t.same([page?.title, page?.tags, page?.frontmatter.source_format], ['Shopping', ['Errands', 'Home'], 'keep'])
})
