// test-runner: shares a process
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks, getLinks } from '../../src/links/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { zip } from './docx-fixtures.js'

const JAN_15 = Date.UTC(2024, 0, 15, 9)

/** A graph as Roam exports it: a daily page, a page with headings, tasks, references and a namespace. */
const graph = [
  {
    title: 'January 15th, 2024',
    uid: '01-15-2024',
    'create-time': JAN_15,
    'edit-time': JAN_15 + 60_000,
    children: [
      { string: '{{[[TODO]]}} Call about the [[Project Tide]] budget', uid: 'task1', 'create-time': JAN_15 },
      { string: '{{[[DONE]]}} Water the garden', uid: 'task2', 'create-time': JAN_15 },
      { string: 'As I wrote: ((quote1))', uid: 'ref1', 'create-time': JAN_15 },
    ],
  },
  {
    title: 'Project Tide',
    'create-time': JAN_15,
    'edit-time': JAN_15,
    children: [
      { string: 'Goals', heading: 2, uid: 'h1', children: [{ string: 'Measure the ^^lag^^ of the bulge', uid: 'quote1' }] },
      {
        string: 'Notes',
        uid: 'n1',
        children: [{ string: 'First __rough__ idea\nsecond line', uid: 'n2', children: [{ string: '{{embed: ((quote1))}}', uid: 'n3' }] }],
      },
      { string: 'Missing ((nope12345))', uid: 'n4' },
    ],
  },
  { title: 'Projects/Tide/Budget', 'create-time': JAN_15, children: [{ string: 'About 40k, see [[January 15th, 2024]]', uid: 'b1' }] },
  { title: 'Empty page', 'create-time': JAN_15 },
]

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

t.test('a Roam graph: a page per Roam page, blocks as an outline, tasks, headings and references read', async (t) => {
  t.equal(converterFor('Downloads/Roam-Export-1705312800000.zip'), 'roam', 'the zip Roam downloads, by its name')
  t.equal(converterFor('Downloads/my-graph.json', undefined, json(graph)), 'roam', 'its JSON, by its first bytes')
  t.equal(converterFor('src/data/pages.json', undefined, json([{ title: 'x', id: 1 }])), null, 'other JSON with titles stays code')
  const r = await convertBounded({ bytes: json(graph), name: 'my-graph.json' })
  t.equal(r.format, 'roam')
  t.same(r.counts, { roam_pages: 4, roam_blocks: 10 })
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['roam/my-graph/january-15th-2024', 'January 15th, 2024'],
      ['roam/my-graph/project-tide', 'Project Tide'],
      ['roam/my-graph/projects/tide/budget', 'Projects/Tide/Budget'],
      ['roam/my-graph/empty-page', 'Empty page'],
    ],
  )
  t.same(r.drafts[0]!.frontmatter, { type: 'note', created: '2024-01-15T09:00:00.000Z', updated: '2024-01-15T09:01:00.000Z' })
  t.equal(
    r.drafts[0]!.body,
    '# January 15th, 2024\n\n- [ ] Call about the [[Project Tide]] budget\n- [x] Water the garden\n- As I wrote: Measure the ==lag== of the bulge\n',
    'a block reference shows the block it names, as Roam shows it',
  )
  t.equal(
    r.drafts[1]!.body,
    [
      '# Project Tide',
      '',
      '### Goals',
      '',
      '- Measure the ==lag== of the bulge',
      '- Notes',
      '  - First *rough* idea',
      '    second line',
      '    - Measure the ==lag== of the bulge',
      '- Missing ((nope12345))',
      '',
    ].join('\n'),
  )
  t.equal(r.drafts[3]!.body, '# Empty page\n\n(empty page)\n')
})

t.test('a Roam export that is not one, or is nested beyond reason, is refused or bounded', async (t) => {
  await t.rejects(convertBounded({ bytes: json({ title: 'x' }), name: 'graph.json' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: zip({ 'a.json': '[]', 'b.json': '[]' }), name: 'Roam-Export-1.zip' }), { code: 'convert_unsupported' })
  let deep: Record<string, unknown> = { string: 'bottom', uid: 'deep-0' }
  for (let i = 1; i < 2_000; i++) deep = { string: `level ${i}`, uid: `deep-${i}`, children: [deep] }
  const r = await convertBounded({ bytes: json([{ title: 'Deep', 'create-time': JAN_15, children: [deep] }]), name: 'deep.json' })
  t.match(r.drafts[0]!.body, new RegExp(`\\n${'  '.repeat(40)}- bottom\\n$`), 'blocks past the depth limit stay at it')
})

engineTest(t, "Roam's export zip in a folder: pages by title, so its links resolve", async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-roam-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'Roam-Export-1705312800000.zip'), zip({ 'my-graph.json': JSON.stringify(graph) }))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.formats.roam?.pages, 4)
  t.equal((await findPage(db, 'default', 'roam/my-graph/project-tide'))?.frontmatter.source_format, 'roam')
  t.same(
    (await getBacklinks(db, 'roam/my-graph/project-tide')).map((l) => l.fromSlug),
    ['roam/my-graph/january-15th-2024'],
  )
  t.same(
    (await getLinks(db, 'roam/my-graph/projects/tide/budget')).map((l) => l.toSlug),
    ['roam/my-graph/january-15th-2024'],
    "a daily page is found by Roam's title for it",
  )
})

engineTest(t, "a Roam graph's JSON unzipped in a folder is found by its first bytes; other JSON stays code", async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-roam-json-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'my-graph.json'), JSON.stringify(graph))
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'tides', version: '1.0.0' }))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.formats.roam?.pages, 4)
  t.equal((await findPage(db, 'default', 'roam/my-graph/project-tide'))?.title, 'Project Tide')
  t.equal((await findPage(db, 'default', 'package.json'))?.pageKind, 'code', 'JSON data stays code')
  t.equal(await findPage(db, 'default', 'my-graph.json'), null, 'the export is not also code')
})
