import t from 'tap'
import { importDocument } from '../../src/import/index.js'
import { formatResults } from '../../src/operations/search.js'
import { listChunks } from '../../src/pages/index.js'
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
