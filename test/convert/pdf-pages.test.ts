// test-runner: shares a process
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { importDocument, importFolder } from '../../src/intake/import/index.js'
import { formatResults } from '../../src/operations/search.js'
import { importPage, listChunks } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { makePdf } from './pdf-fixtures.js'

const WORDS = 'tide harbour engine budget design parser review channel signal archive column ledger'.split(' ')
const lines = (page: number): string[] => Array.from({ length: 45 }, (_, l) => `${Array.from({ length: 12 }, (_, k) => WORDS[(page * 5 + l + k) % WORDS.length]).join(' ')} p${page}l${l}.`)

engineTest(t, 'PDF chunks carry their page numbers, and search results show them', async (t, { db }) => {
  const bytes = await makePdf([{ lines: lines(1) }, { lines: lines(2) }, { lines: lines(3) }], { title: 'Long Paper' })
  const result = await importDocument(db, { bytes, name: 'long.pdf', sourceId: 'default', sourceUri: 'long.pdf', sourceKind: 'file' })
  const chunks = (await listChunks(db, result.pages[0]!.pageId)).filter((c) => c.chunkSource === 'compiled_truth')
  t.ok(chunks.length >= 2, `several chunks (${chunks.length})`)
  t.ok(
    chunks.every((c) => c.symbolType === 'pdf_page' && /^p\. \d(–\d)?$/.test(c.symbolName ?? '')),
    chunks.map((c) => c.symbolName).join(', '),
  )
  t.match(chunks[0]!.symbolName, /^p\. 1/)
  t.match(chunks[chunks.length - 1]!.symbolName, /3$/)
  const withPage = chunks.find((c) => c.chunkText.includes('p2l20.'))!
  t.match(withPage.symbolName, /2/, 'the chunk holding a line of page 2 names page 2')
  const shown = formatResults({ results: [{ score: 1, slug: 'long', snippet: 'tide', symbolType: 'pdf_page', symbolName: withPage.symbolName } as never] })
  t.match(shown, new RegExp(`^\\[1\\.0000\\] long \\(${withPage.symbolName}\\) -- tide`))
})

const paperMarkdown = (edit: string): string =>
  [
    '---',
    'title: Long Paper',
    'type: document',
    'source_format: pdf',
    '---',
    '# Long Paper',
    '',
    ...[1, 2, 3].flatMap((n) => [`## Page ${n}`, '', ...lines(n).map((l) => (l.endsWith('p2l20.') ? `${l} ${edit}` : l)), '']),
  ].join('\n')

engineTest(t, 'a page made from a PDF keeps its page numbers when edited, and when its markdown is imported again', async (t, { db }) => {
  const pages = async (slug: string) => {
    const { rows } = await db.query<{ id: number }>('SELECT id FROM pages WHERE slug = $1', [slug])
    return (await listChunks(db, rows[0]!.id)).filter((c) => c.chunkSource === 'compiled_truth')
  }
  await importPage(db, { slug: 'papers/long', kind: 'markdown', content: paperMarkdown('First reading.'), path: 'papers/long.md' })
  await importPage(db, { slug: 'papers/long', kind: 'markdown', content: paperMarkdown('Edited: the zeppelin note.'), path: 'papers/long.md' })
  const edited = await pages('papers/long')
  t.ok(edited.length >= 2)
  t.ok(
    edited.every((c) => c.symbolType === 'pdf_page'),
    'every chunk of the edited page names its pages',
  )
  t.match(edited.find((c) => c.chunkText.includes('zeppelin'))!.symbolName, /2/)

  const root = await mkdtemp(join(tmpdir(), 'brain-pdf-md-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'paper.md'), paperMarkdown('Brought back from an export.'))
  await writeFile(join(root, 'plain.md'), '# Plain\n\n## Page 1\n\nNot from a PDF.\n')
  const imported = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(imported.created, 2)
  t.ok(
    (await pages('paper')).every((c) => c.symbolType === 'pdf_page'),
    'a folder import labels it too',
  )
  t.ok(
    (await pages('plain')).every((c) => c.symbolType === null),
    'a page not made from a PDF is left alone',
  )
})
