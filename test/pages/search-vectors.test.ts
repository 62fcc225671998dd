// test-runner: shares a process
/**
 * Full-text vectors worked out on a compute lane (a second engine beside the write) must be the
 * bytes the database itself makes from the same text: for the example brain, code with doc
 * comments and symbols, CJK text and German text, in every text-search configuration the engine
 * ships. A write keeps given vectors only when its transaction says it made them so and only for
 * the brain's own language; an import stopped part-way and run again stores every page once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import t, { type Test } from 'tap'
import { importFiles } from '../../src/intake/import/import-files.js'
import { planPages, writePlannedPages, type ImportInput } from '../../src/pages/index.js'
import { analysePages, startVectorAnalysis, type AnalysedPage, type VectorAnalyser } from '../../src/pages/search-vectors.js'
import type { ComputeLane, SqlExecutor } from '../../src/db/index.js'
import type { WalkedFile } from '../../src/intake/sources/walk.js'
import { listSearchLanguages } from '../../src/search/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { engineTest } from '../helpers/engines.js'

const EXTRA: Record<string, string> = {
  'texts/german.md': `---\ntitle: Die Häuser am Fluss\n---\n# Die Häuser am Fluss\n\nDie Bäume wurden im Frühling gepflanzt; über die Brücken fuhren Fahrräder. Größere Straßen führten zur Universität, wo Studentinnen über Datenbanken diskutierten.\n`,
  'texts/cjk.md': `---\ntitle: 知识库的设计\n---\n# 知识库\n\n我们在东京讨论了知识库的设计。日本語のテキストも検索できる。한국어 문장도 색인됩니다. Mixed 中文 and English words, 2024年3月14日.\n`,
  'texts/symbols.md': `# Odd text\n\nURLs https://example.com/a?b=c, mail a.b@example.org, paths /usr/local/bin, versions 1.2.3-rc1, hyphen-ated words, 'quotes' and back\\\\slashes, emoji 🙂, numbers -12.5e3.\n`,
}

function exampleFiles(): Map<string, string> {
  const root = join(packageRoot(), 'examples', 'brain')
  const files = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else files.set(relative(root, path), readFileSync(path, 'utf8'))
    }
  }
  walk(root)
  for (const [path, text] of Object.entries(EXTRA)) files.set(path, text)
  return files
}

const isCode = (path: string): boolean => !path.endsWith('.md')

function inputs(files: Map<string, string>): ImportInput[] {
  return [...files].map(([path, content]) => ({ slug: isCode(path) ? path : path.replace(/\.md$/, ''), sourceId: 'default', kind: isCode(path) ? 'code' : 'markdown', content, path }))
}

/** The pages of the corpus with their chunks, as an import cuts them. */
async function analysedPages(files: Map<string, string>): Promise<AnalysedPage[]> {
  const batch = await planPages(inputs(files), {}, { chunk: true })
  return batch.planned.map((p) => {
    if (!p.chunked || !('drafts' in p.chunked)) throw new Error(`${p.slug} was not chunked`)
    return { key: p.index, title: p.page.title, compiledTruth: p.page.compiledTruth, chunks: p.chunked.drafts }
  })
}

/** The chunk vector as the insert trigger has always written it, spelled out with to_tsvector. */
const CHUNK_VECTOR = `setweight(to_tsvector(c.cfg, coalesce(c.doc, '')), 'A') || setweight(to_tsvector(c.cfg, coalesce(c.symbol, '')), 'A') ||
  setweight(to_tsvector(c.cfg, brain_search_text(coalesce(c.body, ''))), 'B')`
const PAGE_VECTOR = `setweight(to_tsvector(c.cfg, brain_search_text(left(coalesce(c.title, ''), 4096))), 'A') ||
  setweight(to_tsvector(c.cfg, brain_search_text(left(coalesce(c.body, ''), 262144))), 'B')`

async function openedAnalyser(db: Parameters<typeof startVectorAnalysis>[0], t: Test): Promise<VectorAnalyser> {
  const analysis = startVectorAnalysis(db)
  t.teardown(analysis.close)
  const analyser = await analysis.opened
  if (analyser === null) throw new Error('no compute lane opened')
  return analyser
}

engineTest(t, 'vectors worked out on the compute lane are the bytes the database makes, in every shipped configuration', async (t, { db }) => {
  const lane = (await openedAnalyser(db, t)).lane
  const pages = await analysedPages(exampleFiles())
  const chunks = pages.flatMap((p) => p.chunks)
  t.ok(
    chunks.some((c) => c.docComment !== null && c.symbolNameQualified !== null),
    'code chunks carry doc comments and qualified symbols',
  )
  const configs = await listSearchLanguages(db)
  t.ok(configs.length >= 20 && configs.includes('german') && configs.includes('simple'), 'the engine ships its configurations')
  for (const config of configs) {
    const vectors = await analysePages({ lane, config }, pages)
    t.not(vectors, null, `${config}: the lane answered`)
    if (vectors === null) continue
    const given = pages.flatMap((p) => vectors.byPage.get(p.key)!.chunks)
    const { rows } = await db.query<{ ord: number; same: boolean; length_same: boolean }>(
      `SELECT c.ord, tsvectorsend(c.given::tsvector) = tsvectorsend(${CHUNK_VECTOR}) AS same, c.length = search_vector_length(${CHUNK_VECTOR}) AS length_same
       FROM (SELECT $1::regconfig AS cfg, x.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY
             AS x(doc, symbol, body, given, length, ord)) AS c`,
      [config, chunks.map((c) => c.docComment), chunks.map((c) => c.symbolNameQualified), chunks.map((c) => c.text), given.map((g) => g.vector), given.map((g) => g.length)],
    )
    t.same(
      rows.filter((r) => !r.same || !r.length_same).map((r) => r.ord),
      [],
      `${config}: every chunk vector and length is the database's own`,
    )
    const pageRows = await db.query<{ same: boolean }>(
      `SELECT tsvectorsend(c.given::tsvector) = tsvectorsend(${PAGE_VECTOR}) AS same
       FROM (SELECT $1::regconfig AS cfg, x.* FROM unnest($2::text[], $3::text[], $4::text[]) AS x(title, body, given)) AS c`,
      [config, pages.map((p) => p.title), pages.map((p) => p.compiledTruth), pages.map((p) => vectors.byPage.get(p.key)!.page)],
    )
    t.ok(
      pageRows.rows.every((r) => r.same),
      `${config}: every page vector is the database's own`,
    )
  }
})

/** Stored vectors that differ from what the database makes of the stored text. */
async function storedMismatches(db: SqlExecutor): Promise<{ chunks: number; pages: number; stored: number }> {
  const chunks = await db.query<{ n: number; all: number }>(
    `SELECT count(*) FILTER (WHERE tsvectorsend(k.search_vector) <> tsvectorsend(${CHUNK_VECTOR}) OR k.search_length <> search_vector_length(${CHUNK_VECTOR}))::int AS n, count(*)::int AS all
     FROM content_chunks k, LATERAL (SELECT brain_search_language() AS cfg, k.doc_comment AS doc, k.symbol_name_qualified AS symbol, k.chunk_text AS body) AS c`,
  )
  const pages = await db.query<{ n: number }>(
    `SELECT count(*) FILTER (WHERE tsvectorsend(p.search_vector) <> tsvectorsend(${PAGE_VECTOR}))::int AS n
     FROM pages p, LATERAL (SELECT brain_search_language() AS cfg, p.title AS title, p.compiled_truth AS body) AS c`,
  )
  return { chunks: chunks.rows[0]!.n, pages: pages.rows[0]!.n, stored: chunks.rows[0]!.all }
}

engineTest(t, 'an import that works its vectors out on the lane stores the database’s own, in the brain’s language', async (t, { db }) => {
  await db.query(`INSERT INTO config (key, value) VALUES ('search.language', 'german') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`)
  const analyser = await openedAnalyser(db, t)
  t.equal(analyser.config, 'german', 'the lane analyses for the brain’s language')
  // More pages than the lane takes at a time, so the batch's vectors come back in parts.
  const files = exampleFiles()
  for (let i = 0; i < 25; i++) files.set(`notes/n${i}.md`, `# Notiz ${i}\n\nDie Gärten ${i} blühten früher als die Bäume.\n`)
  const batch = await planPages(inputs(files), {}, { chunk: true, analyser })
  t.ok(await batch.vectors, 'the batch’s vectors were worked out')
  const outcomes = await writePlannedPages(db, batch)
  t.ok(
    outcomes.every((o) => o.ok),
    'every page is written',
  )
  const found = await storedMismatches(db)
  t.ok(found.stored > 10, 'chunks were stored')
  t.same([found.chunks, found.pages], [0, 0], 'stored vectors and lengths equal the database’s own')
})

/** A lane that answers every text with the same made-up vector: what the write keeps shows. */
function fakeLane(): ComputeLane {
  return {
    async query<R extends object>(_text: string, params: readonly unknown[] = []) {
      const rows = (params[1] as unknown[]).map(() => ({ v: `'given':1`, n: 1 }))
      return { rows: rows as unknown as R[], rowCount: rows.length }
    },
    close: async () => undefined,
  }
}

engineTest(t, 'given vectors are kept only for the brain’s language, and only by the write that made them', async (t, { db }) => {
  const files = new Map([['notes/a.md', '# A\n\nTomatoes grow in the garden.\n']])
  const write = async (config: string, slug: string): Promise<string> => {
    const batch = await planPages(
      inputs(files).map((i) => ({ ...i, slug })),
      {},
      { chunk: true, analyser: { lane: fakeLane(), config } },
    )
    await writePlannedPages(db, batch)
    const { rows } = await db.query<{ v: string }>(`SELECT c.search_vector::text AS v FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = $1`, [slug])
    return rows[0]!.v
  }
  t.equal(await write('english', 'notes/kept'), `'given':1`, 'a vector made for the brain’s language is stored as given')
  t.match(await write('simple', 'notes/other-language'), /'tomato'/, 'one made for another language is replaced by the database’s own')
  const { rows } = await db.query<{ v: string }>(
    `INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, token_count, search_vector, search_length)
     SELECT id, 99, 'Basil grows too.', 'compiled_truth', 3, '''given'':1', 1 FROM pages WHERE slug = 'notes/kept'
     RETURNING search_vector::text AS v`,
  )
  t.match(rows[0]!.v, /'basil'/, 'any other insert has its vector computed, whatever it carries')
})

engineTest(t, 'an import interrupted after some batches and run again stores every page once', async (t, { db }) => {
  const files = new Map<string, string>()
  for (let i = 0; i < 40; i++)
    files.set(`notes/n${i}.md`, `---\ntitle: Note ${i}\n---\n# Note ${i}\n\nDie Häuser ${i} und 知识库 ${i}; see [[n${(i + 1) % 40}]].\n\n${'Words about gardens and rivers. '.repeat(30)}\n`)
  const walked = [...files.keys()].map((path) => ({ relativePath: path, absolutePath: `/unused/${path}`, kind: 'markdown', size: 0 }) as WalkedFile)
  const options = { sourceId: 'default', embedder: null, batchFiles: 5, readContent: async (f: WalkedFile) => files.get(f.relativePath)! }
  const interrupted = importFiles(db, walked, {
    ...options,
    onProgress: (p) => {
      if (p.done === 22) throw new Error('interrupted')
    },
  })
  await t.rejects(interrupted, { message: 'interrupted' })
  const written = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages`)).rows[0]!.n
  t.ok(written > 0 && written < files.size, `part of the import was kept (${written} pages)`)
  const again = await importFiles(db, walked, options)
  t.same([again.skipped, again.created, again.failed.length], [written, files.size - written, 0], 'the second run writes only what was missing')
  const { rows } = await db.query<{ pages: number; slugs: number; chunks: number; expected: number }>(
    `SELECT count(*)::int AS pages, count(DISTINCT slug)::int AS slugs,
            (SELECT count(*)::int FROM content_chunks) AS chunks,
            (SELECT count(DISTINCT (page_id, chunk_index))::int FROM content_chunks) AS expected FROM pages`,
  )
  t.same([rows[0]!.pages, rows[0]!.slugs], [files.size, files.size], 'every page is stored once')
  t.equal(rows[0]!.chunks, rows[0]!.expected, 'and every chunk once')
  const found = await storedMismatches(db)
  t.same([found.chunks, found.pages], [0, 0], 'stored vectors equal the database’s own')
})
