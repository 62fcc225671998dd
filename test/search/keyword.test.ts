// test-runner: shares a process
import t from 'tap'
import { search, searchKeywordChunks, SEARCH_STATEMENT_TIMEOUT_MS, withSearchTransaction } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { context, importAll, slugs, type PageSpec } from './helpers.js'

const SAME = 'Compaction merges sorted runs so that reads touch fewer files.'

const corpus: PageSpec[] = [
  { slug: 'notes/lsm-trees', content: `# LSM trees\n\n${SAME}` },
  { slug: 'originals/lsm-essay', content: `# Essay on storage\n\n${SAME}` },
  { slug: 'daily/2024-03-01', content: `# Monday notes\n\n${SAME}` },
  { slug: 'test/fixture-lsm', content: `# Fixture\n\n${SAME}` },
  { slug: 'archive/old-lsm', content: `# Old\n\n${SAME}` },
  { slug: 'private/diary', content: `# Diary\n\n${SAME}` },
  {
    slug: 'notes/long-page',
    content: [
      '# Long page',
      '',
      'Intro about gardening and tomatoes.',
      '',
      ...Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${'Filler words about weather and clouds. '.repeat(30)}`),
      '## Tail',
      '',
      'Compaction appears once here, deep in the page.',
    ].join('\n'),
  },
  {
    slug: 'src/storage/compactor.ts',
    kind: 'code',
    path: 'src/storage/compactor.ts',
    content: [
      '/** Merges sorted runs during compaction into one run, dropping duplicate keys. */',
      'export function compactRuns(runs: string[][]): string[] {',
      ...Array.from({ length: 12 }, (_, i) => `  const step${i} = runs.map((run) => run.filter((key) => key.length > ${i})).flat() // pass ${i}`),
      '  return [...new Set(runs.flat())].sort()',
      '}',
      '',
      '/** Tracks compaction statistics per level of the tree. */',
      'export class CompactionStats {',
      ...Array.from({ length: 12 }, (_, i) => `  level${i}Merges = 0 // merges performed on level ${i} of the tree so far`),
      '  record(level: number): void {',
      '    this.total += level',
      '  }',
      '  total = 0',
      '}',
    ].join('\n'),
  },
  {
    slug: 'scripts/compact.py',
    kind: 'code',
    path: 'scripts/compact.py',
    content: ['def compact_runs(runs):', '    """Merge sorted runs (compaction) in Python."""', '    return sorted(x for run in runs for x in run)', ''].join('\n'),
  },
]

engineTest(t, 'keyword search: ranking, boost and detail', async (t, { db }) => {
  await importAll(db, corpus, null)
  const ctx = context(db, undefined)

  await t.test('one result per page, boosted by the longest source prefix, hard excludes applied', async (t) => {
    const response = await search(ctx, 'compaction sorted runs')
    t.equal(response.mode, 'keyword')
    t.same(response.ran, ['keyword'])
    t.equal(response.match, 'any')
    const found = slugs(response)
    t.equal(new Set(found).size, found.length, 'no page twice')
    t.equal(found[0], 'originals/lsm-essay', 'originals/ (1.5) outranks the identical notes/ page')
    t.ok(found.indexOf('notes/lsm-trees') < found.indexOf('daily/2024-03-01'), 'daily/ (0.8) ranks below notes/ (1.0)')
    t.notOk(
      found.some((s) => s.startsWith('test/') || s.startsWith('archive/')),
      'test/ and archive/ excluded by default',
    )
    const byslug = new Map(response.results.map((r) => [r.slug, r]))
    const base = byslug.get('notes/lsm-trees')!.score
    t.ok(Math.abs(byslug.get('originals/lsm-essay')!.score - base * 1.5) < 1e-6, 'score = rank × 1.5')
    t.ok(Math.abs(byslug.get('daily/2024-03-01')!.score - base * 0.8) < 1e-6, 'score = rank × 0.8')
  })

  await t.test('result fields are snake_case and complete', async (t) => {
    const [first] = (await search(ctx, 'compaction', { limit: 1 })).results
    t.same(Object.keys(first!).sort(), [
      'chunk_id',
      'chunk_index',
      'chunk_source',
      'end_line',
      'language',
      'page_kind',
      'score',
      'slug',
      'snippet',
      'source_id',
      'stale',
      'start_line',
      'symbol_name',
      'symbol_name_qualified',
      'symbol_type',
      'title',
      'type',
      'updated_at',
    ])
    t.equal(first!.source_id, 'default')
    t.equal(typeof first!.updated_at, 'string')
    t.equal(first!.stale, false)
  })

  await t.test('detail=high turns the boost off but keeps the excludes', async (t) => {
    const response = await search(ctx, 'compaction sorted runs', { detail: ' HIGH ' })
    t.equal(response.detail, 'high')
    const scores = new Map(response.results.map((r) => [r.slug, r.score]))
    t.equal(scores.get('originals/lsm-essay'), scores.get('notes/lsm-trees'), 'no boost')
    t.equal(scores.get('daily/2024-03-01'), scores.get('notes/lsm-trees'), 'no dampening')
    t.notOk(
      slugs(response).some((s) => s.startsWith('test/')),
      'excludes still apply',
    )
  })

  await t.test('BRAIN_SOURCE_BOOST overrides defaults; factor 0 is legal', async (t) => {
    const boosted = context(db, undefined, { sourceBoostRaw: 'daily/:3,originals/:0' })
    const response = await search(boosted, 'compaction sorted runs')
    t.equal(slugs(response)[0], 'daily/2024-03-01')
    const essay = response.results.find((r) => r.slug === 'originals/lsm-essay')
    t.equal(essay?.score, 0, 'factor 0 keeps the page, at score 0')
    t.equal(slugs(response).at(-1), 'originals/lsm-essay')
    await t.rejects(search(context(db, undefined, { sourceBoostRaw: 'daily/:-1' }), 'compaction'), { code: 'source_boost_negative' })
  })

  await t.test('a boost prefix is matched literally: _ and % are no wildcards', async (t) => {
    // As bare patterns 'note_/' would match 'notes/', 'n%/' every folder beginning with n, and
    // 'dail\y/' would match 'daily/'.
    const boosted = context(db, undefined, { sourceBoostRaw: 'note_/:3,n%/:2,dail\\y/:4' })
    const scores = new Map((await search(boosted, 'compaction sorted runs')).results.map((r) => [r.slug, r.score]))
    const plain = new Map((await search(ctx, 'compaction sorted runs')).results.map((r) => [r.slug, r.score]))
    t.ok(plain.has('notes/lsm-trees') && plain.has('daily/2024-03-01'))
    t.equal(scores.get('notes/lsm-trees'), plain.get('notes/lsm-trees'), 'notes/ keeps its own factor')
    t.equal(scores.get('daily/2024-03-01'), plain.get('daily/2024-03-01'), 'a backslash is no escape either')
  })
})

engineTest(t, 'keyword search: excludes and filters', async (t, { db }) => {
  await importAll(db, corpus, null)
  const ctx = context(db, undefined)

  await t.test('BRAIN_SEARCH_EXCLUDE, exclude_slug_prefixes and include_slug_prefixes', async (t) => {
    t.ok(slugs(await search(ctx, 'compaction')).includes('private/diary'))
    const env = context(db, undefined, { excludeRaw: 'private/, daily/' })
    const found = slugs(await search(env, 'compaction'))
    t.notOk(found.includes('private/diary') || found.includes('daily/2024-03-01'), 'env excludes')
    t.notOk(
      slugs(await search(ctx, 'compaction', { exclude_slug_prefixes: ['notes/'] })).some((s) => s.startsWith('notes/')),
      'per-call exclude',
    )
    const included = slugs(await search(env, 'compaction', { include_slug_prefixes: ['test/', 'private/'] }))
    t.ok(included.includes('test/fixture-lsm') && included.includes('private/diary'), 'include lifts default and env excludes')
    t.notOk(included.includes('archive/old-lsm'), 'other defaults stay')
    await importAll(
      db,
      [
        { slug: 'notesXlsm/copy', content: `# Copy\n\n${SAME}` },
        { slug: 'notes_lsm/copy', content: `# Copy\n\n${SAME}` },
      ],
      null,
    )
    const literal = slugs(await search(ctx, 'compaction', { exclude_slug_prefixes: ['notes_lsm/'], limit: 50 }))
    t.ok(literal.includes('notesXlsm/copy') && !literal.includes('notes_lsm/copy'), 'prefixes are literal: _ is not a wildcard')
  })

  await t.test('filters: language, symbolKind, sourceId', async (t) => {
    t.same(slugs(await search(ctx, 'compaction', { language: 'ts' })), ['src/storage/compactor.ts'])
    t.same(slugs(await search(ctx, 'compaction', { language: 'python' })), ['scripts/compact.py'])
    const classes = await searchKeywordChunks(ctx, 'compaction', { symbolKind: 'class' })
    t.ok(classes.length > 0 && classes.every((r) => r.symbol_type === 'class'), 'symbol kind filter')
    t.same(slugs(await search(ctx, 'compaction', { sourceId: 'elsewhere' })), [])
    await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
    await importAll(db, [{ slug: 'notes/lsm-trees', sourceId: 'work', content: `# Work copy\n\n${SAME}` }], null)
    const work = await search(ctx, 'compaction', { sourceId: 'work' })
    t.same(
      work.results.map((r) => [r.slug, r.source_id]),
      [['notes/lsm-trees', 'work']],
    )
    const both = (await search(ctx, 'compaction sorted')).results.filter((r) => r.slug === 'notes/lsm-trees')
    t.same(both.map((r) => r.source_id).sort(), ['default', 'work'], 'the same slug in two sources is two pages')
  })
})

engineTest(t, 'keyword search: chunks, paging, any-word matching, stale', async (t, { db }) => {
  await importAll(db, corpus, null)
  const ctx = context(db, undefined)

  await t.test('the best chunk of a page is the one returned', async (t) => {
    const chunks = await searchKeywordChunks(ctx, 'compaction', { limit: 50 })
    t.ok(chunks.length > slugs(await search(ctx, 'compaction', { limit: 50 })).length - 1, 'chunk search returns chunks')
    const perPage = (await search(ctx, 'compaction', { limit: 50 })).results
    for (const result of perPage) {
      const best = chunks.filter((c) => c.slug === result.slug && c.source_id === result.source_id)[0]
      t.equal(result.chunk_id, best?.chunk_id, `${result.slug}: best chunk`)
    }
  })

  await t.test('chunk-level search keeps several chunks of one page', async (t) => {
    const chunks = await searchKeywordChunks(ctx, 'compaction', { language: 'typescript', limit: 20 })
    t.ok(chunks.length >= 2, `${chunks.length} chunks`)
    t.same(new Set(chunks.map((c) => c.slug)), new Set(['src/storage/compactor.ts']))
  })

  await t.test('limit and offset page through the same ranking', async (t) => {
    const all = slugs(await search(ctx, 'compaction', { limit: 8 }))
    const first = slugs(await search(ctx, 'compaction', { limit: 4 }))
    const second = slugs(await search(ctx, 'compaction', { limit: 4, offset: 4 }))
    t.same([...first, ...second], all)
  })

  await t.test('any word makes a candidate, pages matching more words first', async (t) => {
    const partial = await search(ctx, 'compaction zebras')
    t.equal(partial.match, 'any')
    t.ok(partial.results.length > 0, 'one unknown word does not empty the result')
    const all = slugs(await search(ctx, 'compaction sorted zebras', { limit: 20 }))
    t.ok(all.length > 2)
    t.same(slugs(await search(ctx, 'compaction sorted zebras', { limit: 2, offset: 2 })), all.slice(2, 4), 'later pages continue the ranking')
    t.same((await search(ctx, 'compaction sorted', { limit: 5, offset: 500 })).results, [], 'past the end: empty')
    t.equal((await search(ctx, 'zebras giraffes')).results.length, 0)
    t.ok(slugs(await search(ctx, '"merges sorted runs"')).length > 0, 'phrases in web-search syntax')
    t.notOk(slugs(await search(ctx, 'compaction -python')).includes('scripts/compact.py'), 'exclusion in web-search syntax')
    t.same((await search(ctx, '!!! ???')).results, [], 'a query without words finds nothing')
  })

  await t.test('stale comes from updated_at', async (t) => {
    await db.query(`UPDATE pages SET updated_at = now() - interval '400 days' WHERE slug = 'notes/lsm-trees'`)
    const results = (await search(ctx, 'compaction sorted runs')).results
    t.ok(results.filter((r) => r.slug === 'notes/lsm-trees').every((r) => r.stale))
    t.ok(results.filter((r) => r.slug !== 'notes/lsm-trees').every((r) => !r.stale))
    const future = { ...ctx, now: () => new Date(Date.now() + 365 * 86_400_000) }
    t.ok(
      (await search(future, 'compaction')).results.every((r) => r.stale),
      'a year later everything is stale',
    )
  })

  await t.test('an empty query is a usage error', async (t) => {
    await t.rejects(search(ctx, '   '), { errorClass: 'UsageError', code: 'search_requires_query' })
  })
})

engineTest(t, 'search statement timeout', async (t, { engine, db }) => {
  const before = (await db.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout
  const inside = await withSearchTransaction(db, async (tx) => (await tx.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout)
  t.equal(SEARCH_STATEMENT_TIMEOUT_MS, 8000)
  t.equal(inside, '8s', 'set inside the search transaction')
  const after = (await db.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout
  t.equal(after, before, 'scoped to the transaction')
  if (engine === 'postgres') {
    await t.rejects(
      withSearchTransaction(db, (tx) => tx.query('SELECT pg_sleep(2)'), { timeoutMs: 50 }),
      { errorClass: 'DatabaseError', code: 'search_timeout' },
      'a slow statement is cancelled and reported as a typed error',
    )
    t.equal((await db.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]!.ok, 1, 'the connection is usable afterwards')
  }
})
