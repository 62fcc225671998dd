// test-runner: shares a process
/**
 * Full-text vectors worked out in this process (the plain part of each text cut in JavaScript, the
 * rest by the database's parser, every token reduced by the configuration's dictionary) must be the
 * bytes the database makes from the same text: for random groups and texts, the example brain,
 * code, German and odd tokens, texts past the limits of positions, in every shipped configuration.
 * A page this cannot read (CJK, a tag) is left to the triggers; an import on the embedded engine
 * stores the database's own vectors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'
import { importFiles } from '../../src/intake/import/import-files.js'
import type { WalkedFile } from '../../src/intake/sources/walk.js'
import { planPages, type ImportInput } from '../../src/pages/index.js'
import { InProcessAnalyser } from '../../src/pages/search-vectors-here.js'
import type { AnalysedPage } from '../../src/pages/search-vectors.js'
import { plainTokens, readableHere } from '../../src/pages/text-tokens.js'
import { listSearchLanguages, setSearchLanguage } from '../../src/search/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { engineTest } from '../helpers/engines.js'

/** A small seeded generator, so that a failure can be run again. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = Math.imul(state ^ (state >>> 15), 1 | state)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n)
  }
}

const GROUP_CHARS = 'aaaaZZ0000 .,;:!?\'"()[]{}*#$%^=|`_-/@&+~\\'
const WORDS = [
  'the',
  'a',
  'Review',
  'reviews',
  'running',
  'and',
  'of',
  'café',
  'e.g.',
  'U.S.',
  'foo-bar',
  'x@y.com',
  'https://example.com/a?b=c',
  '2024-05-01T08:06:00.000Z',
  '3.14',
  '-5',
  "don't",
  'end.',
  'note:',
  '**bold**',
  '(paren)',
  '—',
  '12',
  'abc123',
  'path/to/file.txt',
  '&amp;',
  'ok,',
  'What?',
  '"quoted"',
  'snake_case',
  'Über',
  'naïve',
  'Gärten',
  '🙂',
  'word..',
  'v1.2.3-rc1',
  '\\back\\slash',
  "'single'",
  'x'.repeat(3000),
  'y'.repeat(2046),
  'z'.repeat(2047),
]
/** Code, where a `<` may or may not open a tag that spans white space. */
const CODE_WORDS = [
  'Promise<void>',
  'a<b',
  'x < y',
  '<div>',
  'Map<string,',
  'number>>',
  '<a',
  'href=x>',
  '</p>',
  '<',
  '>',
  'x<=3',
  'if',
  '(a<b',
  '&&',
  'c>d)',
  'return',
  'List<T>',
  '<T,',
  'U>()',
  'foo.bar()',
  '=>',
  'const',
]
const SEPARATORS = [' ', '\n', '\n\n', '\t', '  ', ' \r\n']

function randomText(next: (n: number) => number, words: number, from: readonly string[] = WORDS): string {
  return Array.from({ length: words }, () => from[next(from.length)]! + SEPARATORS[next(SEPARATORS.length)]!).join('')
}

function exampleInputs(): ImportInput[] {
  const root = join(packageRoot(), 'examples', 'brain')
  const inputs: ImportInput[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else {
        const rel = relative(root, path)
        const code = !rel.endsWith('.md')
        inputs.push({ slug: code ? rel : rel.replace(/\.md$/, ''), sourceId: 'default', kind: code ? 'code' : 'markdown', content: readFileSync(path, 'utf8'), path: rel })
      }
    }
  }
  walk(root)
  return inputs
}

/** The example brain as an import cuts it, random pages, and pages at the limits of a vector. */
async function corpus(): Promise<AnalysedPage[]> {
  const batch = await planPages(exampleInputs(), {}, { chunk: true })
  const pages: AnalysedPage[] = batch.planned.map((p) => {
    if (!p.chunked || !('drafts' in p.chunked)) throw new Error(`${p.slug} was not chunked`)
    return { key: p.index, title: p.page.title, compiledTruth: p.page.compiledTruth, chunks: p.chunked.drafts }
  })
  const next = random(7)
  const chunk = (text: string, doc: string | null = null, symbol: string | null = null): AnalysedPage['chunks'][number] =>
    ({ text, docComment: doc, symbolNameQualified: symbol }) as AnalysedPage['chunks'][number]
  for (let i = 0; i < 40; i++) {
    pages.push({
      key: 1000 + i,
      title: randomText(next, 1 + next(5)),
      compiledTruth: randomText(next, next(300)),
      chunks: Array.from({ length: 1 + next(3) }, () => chunk(randomText(next, next(150)), next(3) === 0 ? randomText(next, next(8)) : null, next(3) === 0 ? 'Store.save' : null)),
    })
  }
  for (let i = 0; i < 30; i++) {
    const code = (n: number): string => randomText(next, n, next(2) === 0 ? CODE_WORDS : [...CODE_WORDS, ...WORDS.filter((w) => !/["']/.test(w))])
    pages.push({ key: 1500 + i, title: code(1 + next(4)), compiledTruth: code(next(300)), chunks: [chunk(code(next(150)), code(next(6)), 'List.get')] })
  }
  // 300 of one word (a lexeme keeps 255 positions, 256 once joined), past position 16,383, and nothing but stop words.
  pages.push({ key: 2000, title: 'Repeat', compiledTruth: `${'review '.repeat(300)}${'word '.repeat(17000)}review tail`, chunks: [chunk('review '.repeat(300), 'review '.repeat(100)), chunk('')] })
  pages.push({ key: 2001, title: '', compiledTruth: '', chunks: [chunk('the of and')] })
  pages.push({
    key: 2002,
    title: 'Die Häuser am Fluss',
    compiledTruth: 'Die Bäume wurden im Frühling gepflanzt; über die Brücken fuhren Fahrräder. Größere Straßen führten zur Universität.',
    chunks: [chunk('Die Bäume wurden im Frühling gepflanzt.')],
  })
  return pages
}

engineTest(t, "the plain reading of a group is the database parser's own", async (t, { db }) => {
  const next = random(11)
  const groups = new Set<string>()
  while (groups.size < 6000) {
    let group = ''
    for (let k = 1 + next(8); k > 0; k--) {
      const c = GROUP_CHARS[next(GROUP_CHARS.length)]!
      group += c === 'a' ? 'abc'.slice(0, 1 + next(3)) : c === 'Z' ? 'Xy' : c === '0' ? String(next(100)) : c
    }
    if (!/\s/.test(group)) groups.add(group)
  }
  const plain = [...groups].filter((g) => plainTokens(g) !== null)
  t.ok(plain.length > 500 && plain.length < groups.size, `some groups are read here (${plain.length} of ${groups.size}), others left to the parser`)
  const { rows } = await db.query<{ g: number; type: number; token: string }>(
    `SELECT g.i::int AS g, p.tokid AS type, p.token FROM unnest($1::text[]) WITH ORDINALITY AS g(t, i), LATERAL ts_parse('default', g.t) WITH ORDINALITY AS p(tokid, token, n)
     WHERE p.tokid <> (SELECT tokid FROM ts_token_type('default') WHERE alias = 'blank') ORDER BY g.i, p.n`,
    [plain],
  )
  const parsed = plain.map(() => [] as string[])
  for (const r of rows) parsed[Number(r.g) - 1]!.push(`${r.type}:${r.token}`)
  const differing = plain.filter(
    (g, i) =>
      plainTokens(g)!
        .map((tok) => `${tok.type}:${tok.text}`)
        .join(' ') !== parsed[i]!.join(' '),
  )
  t.same(differing, [], 'every plain group reads as the parser reads it')
  t.equal(plainTokens('word..'), null, 'a run of dots is left to the parser')
  t.equal(plainTokens('foo-bar'), null, 'so is a hyphenated word')
  t.same(
    plainTokens("(don't)"),
    [
      { type: 1, text: 'don' },
      { type: 1, text: 't' },
    ],
    'an apostrophe separates two words',
  )
})

engineTest(t, 'vectors worked out in this process are the bytes the database makes, in every shipped configuration', async (t, { db }) => {
  const pages = await corpus()
  const chunks = pages.flatMap((p) => p.chunks)
  t.ok(
    chunks.some((c) => c.docComment !== null && c.symbolNameQualified !== null),
    'code chunks carry doc comments and qualified symbols',
  )
  const configs = await listSearchLanguages(db)
  t.ok(configs.length >= 20 && configs.includes('german') && configs.includes('simple'), 'the engine ships its configurations')
  // Every configuration reads the example brain and the pages of German and stop words; three read
  // the random texts and the texts past the limits too, whose positions do not depend on the language.
  const shared = pages.filter((p) => p.key < 1000 || p.key === 2001 || p.key === 2002)
  for (const config of configs) {
    await setSearchLanguage(db, config)
    const analyser = await InProcessAnalyser.open(db)
    t.not(analyser, null, `${config}: its dictionaries are followed`)
    if (analyser === null) continue
    const asked = ['english', 'german', 'simple'].includes(config) ? pages : shared
    const vectors = await analyser.analyse(db, asked)
    const analysed = asked.filter((p) => vectors?.byPage.has(p.key))
    const readable = asked.filter((p) => [p.title, p.compiledTruth, ...p.chunks.flatMap((c) => [c.text, c.docComment ?? '', c.symbolNameQualified ?? ''])].every(readableHere))
    t.same(
      analysed.map((p) => p.key),
      readable.map((p) => p.key),
      `${config}: every page without CJK text or a tag was analysed (${analysed.length} of ${asked.length})`,
    )
    const given = analysed.flatMap((p) => vectors!.byPage.get(p.key)!.chunks)
    const own = analysed.flatMap((p) => p.chunks)
    const { rows } = await db.query<{ ord: number }>(
      `SELECT c.ord FROM (SELECT $1::regconfig AS cfg, x.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY AS x(doc, symbol, body, given, length, ord)) AS c
       WHERE tsvectorsend(c.given::tsvector) <> tsvectorsend(brain_chunk_search_vector(c.cfg, c.doc, c.symbol, c.body)) OR c.length <> search_vector_length(brain_chunk_search_vector(c.cfg, c.doc, c.symbol, c.body))`,
      [config, own.map((c) => c.docComment), own.map((c) => c.symbolNameQualified), own.map((c) => c.text), given.map((g) => g.vector), given.map((g) => g.length)],
    )
    t.same(
      rows.map((r) => r.ord),
      [],
      `${config}: every chunk vector and length is the database's own`,
    )
    const pageRows = await db.query<{ ord: number }>(
      `SELECT c.ord FROM (SELECT $1::regconfig AS cfg, x.* FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(title, body, given, ord)) AS c
       WHERE tsvectorsend(c.given::tsvector) <> tsvectorsend(brain_page_search_vector(c.cfg, c.title, c.body))`,
      [config, analysed.map((p) => p.title), analysed.map((p) => p.compiledTruth), analysed.map((p) => vectors!.byPage.get(p.key)!.page)],
    )
    t.same(
      pageRows.rows.map((r) => r.ord),
      [],
      `${config}: every page vector is the database's own`,
    )
  }
})

engineTest(t, 'a page with CJK text or a tag is left to the triggers', async (t, { db }) => {
  const analyser = await InProcessAnalyser.open(db)
  t.ok(analyser, 'english is followed')
  const chunk = (text: string): AnalysedPage['chunks'][number] => ({ text, docComment: null, symbolNameQualified: null }) as AnalysedPage['chunks'][number]
  const vectors = await analyser!.analyse(db, [
    { key: 1, title: 'Plain', compiledTruth: 'Plain words only.', chunks: [chunk('Plain words only.')] },
    { key: 2, title: '知识库', compiledTruth: '我们在东京讨论了知识库的设计。', chunks: [chunk('我们在东京讨论了知识库的设计。')] },
    { key: 3, title: 'Tag', compiledTruth: 'A <b title="two words">tag</b> here.', chunks: [chunk('A <b title="two words">tag</b> here.')] },
  ])
  t.same([...(vectors?.byPage.keys() ?? [])], [1], 'only the plain page has vectors worked out here')
})

engineTest(t, "an import on either engine stores the database's own vectors", async (t, { db }) => {
  await setSearchLanguage(db, 'german')
  // Where statements take turns on this thread the import works the vectors out here: its
  // dictionary statement shows it.
  const statements: string[] = []
  const query = db.query.bind(db)
  db.query = ((text: string, params?: readonly unknown[]) => {
    statements.push(text)
    return query(text, params as never)
  }) as typeof db.query
  const files = new Map<string, string>()
  for (const input of exampleInputs()) if (input.kind === 'markdown') files.set(`${input.slug}.md`, input.content)
  for (let i = 0; i < 30; i++)
    files.set(`notes/n${i}.md`, `# Notiz ${i}\n\nDie Gärten ${i} blühten früher als die Bäume; siehe https://example.org/${i} und 知识库.\n\n${'Wörter über Gärten und Flüsse. '.repeat(20)}\n`)
  const walked = [...files.keys()].map((path) => ({ relativePath: path, absolutePath: `/unused/${path}`, kind: 'markdown', size: 0 }) as WalkedFile)
  const result = await importFiles(db, walked, { sourceId: 'default', embedder: null, batchFiles: 8, readContent: async (f: WalkedFile) => files.get(f.relativePath)! })
  t.equal(result.created, files.size, 'every page is written')
  const { rows } = await db.query<{ chunks: number; pages: number; stored: number }>(
    `SELECT (SELECT count(*)::int FROM content_chunks k
             WHERE tsvectorsend(k.search_vector) <> tsvectorsend(brain_chunk_search_vector(brain_search_language(), k.doc_comment, k.symbol_name_qualified, k.chunk_text))
                OR k.search_length <> search_vector_length(k.search_vector)) AS chunks,
            (SELECT count(*)::int FROM pages p WHERE tsvectorsend(p.search_vector) <> tsvectorsend(brain_page_search_vector(brain_search_language(), p.title, p.compiled_truth))) AS pages,
            (SELECT count(*)::int FROM content_chunks) AS stored`,
  )
  t.ok(rows[0]!.stored > 30, 'chunks were stored')
  t.equal(
    statements.some((s) => s.includes('ts_lexize')),
    !db.capabilities.parallelStatements,
    'vectors were worked out in this process on the embedded engine only',
  )
  t.same([rows[0]!.chunks, rows[0]!.pages], [0, 0], "stored vectors and lengths equal the database's own")
  const tiers = await db.query<{ differ: number; tiered: number }>(
    `SELECT count(*) FILTER (WHERE tsvectorsend(search_tiers) <> tsvectorsend(brain_search_tiers(search_vector, search_length, slug)))::int AS differ,
            count(*) FILTER (WHERE length(search_tiers) > 0)::int AS tiered
     FROM search_chunks`,
  )
  t.ok(tiers.rows[0]!.tiered > 30, 'chunks have impact tiers')
  t.equal(tiers.rows[0]!.differ, 0, "stored impact tiers equal the database's own")
})

engineTest(t, "impact tiers worked out with the vectors are the ones stored, and equal the database's", async (t, { engine, db }) => {
  // The database's own function marks what it computes, so a tier list it did not make shows.
  await db.exec(`ALTER FUNCTION brain_search_tiers(tsvector, integer, text) RENAME TO brain_search_tiers_own`)
  await db.exec(`CREATE FUNCTION brain_search_tiers(vector tsvector, len integer, slug text) RETURNS tsvector LANGUAGE sql IMMUTABLE AS
    $$ SELECT brain_search_tiers_own(vector, len, slug) || 'computed~here'::tsvector $$`)
  const rng = random(7)
  const files = new Map<string, string>()
  // Words repeated to every density around the two tier lines, odd lexemes, and slugs of several depths.
  for (let i = 0; i < 40; i++) {
    const words = Array.from({ length: 5 + rng(200) }, () => WORDS[rng(WORDS.length)]!.replace(/[<>]/g, ''))
    const dense = Array.from({ length: 1 + rng(12) }, () => 'tiered').join(' ')
    const slug = `${['a', 'a/b', 'deep/er/still', "quo'te\\s/x"][i % 4]}/note-${i}`
    files.set(`${slug}.md`, `# Note ${i}\n\n${dense} ${words.join(' ')}\n\n${'x'.repeat(rng(3) === 0 ? 1200 : 3)} end.\n`)
  }
  const walked = [...files.keys()].map((path) => ({ relativePath: path, absolutePath: `/unused/${path}`, kind: 'markdown', size: 0 }) as WalkedFile)
  const result = await importFiles(db, walked, { sourceId: 'default', embedder: null, batchFiles: 16, readContent: async (f: WalkedFile) => files.get(f.relativePath)! })
  t.equal(result.created, files.size, 'every page is written')
  const marked = await db.query<{ n: number; total: number }>(`SELECT count(*) FILTER (WHERE search_tiers @@ 'computed~here'::tsquery)::int AS n, count(*)::int AS total FROM search_chunks`)
  t.ok(marked.rows[0]!.total >= files.size, 'chunks were stored')
  if (engine === 'pglite') t.equal(marked.rows[0]!.n, 0, 'on the embedded engine every tier list came with its vector')
  else t.equal(marked.rows[0]!.n, marked.rows[0]!.total, 'on the server the trigger worked out every tier list')
  const { rows } = await db.query<{ differ: number; prefixes: number }>(
    `SELECT count(*) FILTER (WHERE tsvectorsend(ts_delete(search_tiers, 'computed~here')) <> tsvectorsend(brain_search_tiers_own(search_vector, search_length, slug)))::int AS differ,
            count(*) FILTER (WHERE search_tiers @@ 'p~deep/er/:*'::tsquery)::int AS prefixes
     FROM search_chunks`,
  )
  t.ok(rows[0]!.prefixes > 0, 'slug prefixes are among the tiers')
  t.equal(rows[0]!.differ, 0, "every stored tier list is the database's own")
})
