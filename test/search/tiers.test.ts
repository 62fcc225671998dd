// test-runner: shares a process
import t from 'tap'
import { rmSync } from 'node:fs'
import type { SqlExecutor } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import { keywordRows, type KeywordMatch } from '../../src/search/keyword.js'
import { planSearch } from '../../src/search/options.js'
import { withSearchTransaction } from '../../src/search/sql.js'
import { BM25_B, BM25_K1, termFrequencySql } from '../../src/search/bm25.js'
import { planCovers, SATURATION_BASE, SATURATION_PER_LEXEME, TIER_ENTRY_MAX_BYTES, TIER_RATIOS, tierPlan, tierShareBound, type TierPlan } from '../../src/search/tiers.js'
import { engineTest } from '../helpers/engines.js'
import { writeTree } from '../helpers/tree.js'

/** What brain_search_tiers must list, computed here from the constants the query side proves with. */
function expectedTiers(lexemes: Record<string, number | null>, length: number, slug: string): string[] {
  const saturation = SATURATION_BASE + SATURATION_PER_LEXEME * length
  const entries: string[] = []
  for (const [lexeme, tf] of Object.entries(lexemes)) {
    if (Buffer.byteLength(lexeme) > TIER_ENTRY_MAX_BYTES) continue
    const frequency = tf ?? Number.POSITIVE_INFINITY
    const level = TIER_RATIOS.findIndex((ratio) => frequency >= ratio * saturation)
    if (level >= 0) entries.push(`${level + 1}~${lexeme}`)
  }
  const parts = slug.split('/')
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/')
    if (Buffer.byteLength(folder) <= TIER_ENTRY_MAX_BYTES) entries.push(`p~${folder}/`)
  }
  return entries.sort()
}

function vectorLiteral(lexemes: Record<string, number | null>): string {
  let position = 1
  return Object.entries(lexemes)
    .map(([lexeme, tf]) => {
      const quoted = `'${lexeme.replace(/'/g, "''")}'`
      if (tf === null) return quoted
      return `${quoted}:${Array.from({ length: tf }, () => position++).join(',')}`
    })
    .join(' ')
}

engineTest(t, 'brain_search_tiers lists what the constants of the proof say', async (t, { db }) => {
  const long = 'x'.repeat(TIER_ENTRY_MAX_BYTES + 1)
  const cases: { lexemes: Record<string, number | null>; length: number; slug: string }[] = [
    { lexemes: { garden: 1, soil: 2, seed: 5 }, length: 8, slug: 'notes/garden' },
    { lexemes: { garden: 1, soil: 2, seed: 5 }, length: 200, slug: 'writing/2024/spring' },
    { lexemes: { garden: 3, compost: 4, "o'neil": 9 }, length: 60, slug: 'top' },
    { lexemes: { stripped: null, kept: 1 }, length: 400, slug: 'a//b/c' },
    { lexemes: { [long]: 40, short: 40 }, length: 40, slug: `${long}/page` },
  ]
  for (let tf = 1; tf <= 12; tf++) cases.push({ lexemes: { word: tf }, length: tf * 7, slug: 'daily/x' })
  for (const c of cases) {
    const { rows } = await db.query<{ entries: string[] | null }>(`SELECT tsvector_to_array(brain_search_tiers($1::tsvector, $2, $3)) AS entries`, [vectorLiteral(c.lexemes), c.length, c.slug])
    t.same([...(rows[0]?.entries ?? [])].sort(), expectedTiers(c.lexemes, c.length, c.slug), `${Object.keys(c.lexemes).join(',').slice(0, 40)} at length ${c.length}`)
  }
})

engineTest(t, 'the BM25 term frequency read back from ts_rank is the number of positions', async (t, { db }) => {
  // The tier proof bounds a chunk by the positions it lists; the ranking reads the frequency
  // back from ts_rank, so the two must agree for every frequency a vector can hold.
  const { rows } = await db.query<{ n: number; tf: number }>(
    `SELECT n, (${termFrequencySql('v', `'w'::tsquery`)})::int AS tf
     FROM generate_series(1, 256) AS n, LATERAL (SELECT ('w:' || array_to_string(ARRAY(SELECT generate_series(1, n)), ','))::tsvector AS v) AS x`,
  )
  t.equal(rows.length, 256)
  t.same(
    rows.filter((r) => Number(r.tf) !== Number(r.n)),
    [],
    'every frequency from 1 to 256 reads back exactly',
  )
})

t.test('the left-out share bound holds for every chunk outside the tiers, and is nearly reached', async (t) => {
  // Every integer term frequency and chunk length a chunk outside tiers 1..j can have: tf ≥ 1,
  // length ≥ tf (it counts every position), tf below the tier's line.
  for (const averageLength of [3, 20, 70.1, 100, 400, 5000]) {
    for (let level = 1; level <= TIER_RATIOS.length; level++) {
      const ratio = TIER_RATIOS[level - 1]!
      const bound = tierShareBound(level, averageLength)
      let highest = 0
      for (let tf = 1; tf <= 400; tf++) {
        for (let length = tf; length <= 40_000; length += length < 2000 ? 1 : 97) {
          if (tf >= ratio * (SATURATION_BASE + SATURATION_PER_LEXEME * length)) continue
          highest = Math.max(highest, tf / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength)))
        }
      }
      t.ok(highest <= bound, `tier ${level}, average ${averageLength}: the highest share ${highest.toFixed(4)} is within the bound ${bound.toFixed(4)}`)
      t.ok(highest >= bound * 0.95, `tier ${level}, average ${averageLength}: the bound ${bound.toFixed(4)} is close to the highest share ${highest.toFixed(4)}`)
    }
  }
})

t.test('a wider plan reads word sets only where the tiers cannot prove the window', async (t) => {
  const terms = [
    { lexeme: 'climb', weight: 1.25 },
    { lexeme: 'grade', weight: 1.27 },
  ]
  const averageLength = 70
  // What each word can give a chunk outside both of its tiers, and the two together.
  const shares = terms.map((term) => term.weight * tierShareBound(2, averageLength))
  const together = shares[0]! + shares[1]!
  t.same(tierPlan(terms, [], averageLength, 1.01 * together, [2, 2]), { base: [2, 2], presence: [], folders: [] }, 'every tier proves a window above what both words give outside them')
  t.same(tierPlan(terms, [], averageLength, 0.99 * together, [2, 2]), { base: [2, 2], presence: [[0, 1]], folders: [] }, 'below that, chunks holding both words are ranked too')
  t.equal(tierPlan(terms, [], averageLength, 0.99 * Math.min(...shares), [2, 2]), null, 'when either word alone may reach the window, that is every candidate')
  t.same(
    tierPlan(terms, [{ prefix: 'writing/', factor: 1.5 }], averageLength, 1.01 * together, [2, 2]),
    { base: [2, 2], presence: [], folders: [{ prefix: 'writing/', levels: [0, 0], presence: [[0, 1]] }] },
    'a boosted folder is held to the window divided by its factor',
  )
  t.equal(tierPlan(terms, [{ prefix: 'writ', factor: 1.5 }], averageLength, 1.01 * together, [2, 2]), null, 'a boosted prefix that is not a folder cannot be looked up')

  const held: TierPlan = { base: [2, 1], presence: [[0, 1]], folders: [{ prefix: 'writing/', levels: [2, 2], presence: [[1]] }] }
  t.ok(planCovers(held, { base: [1, 1], presence: [], folders: [] }), 'shallower levels are covered')
  t.notOk(planCovers(held, { base: [2, 2], presence: [], folders: [] }), 'a deeper level is not')
  t.ok(planCovers(held, { base: [2, 1], presence: [[0, 1]], folders: [{ prefix: 'writing/', levels: [2, 2], presence: [[0, 1]] }] }), 'a set holding a held set is covered')
  t.notOk(planCovers(held, { base: [2, 1], presence: [[0]], folders: [] }), 'a set smaller than every held set is not')
  t.notOk(planCovers(held, { base: [2, 1], presence: [], folders: [{ prefix: 'concepts/', levels: [2, 2], presence: [] }] }), 'another folder is not')
})

const COMMON = ['garden', 'harvest', 'compost', 'soil', 'seed']
const FILLER = ['river', 'lantern', 'pepper', 'violin', 'granite', 'meadow', 'copper', 'falcon', 'orchard', 'thistle', 'walnut', 'ember']
const FOLDERS = ['writing', 'concepts', 'people', 'daily', 'notes', 'media/x', 'originals', 'archive', 'notes/deep']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Pages whose common words sit in most chunks at every frequency, short and long, in boosted and plain folders. */
function corpus(pages: number): Record<string, string> {
  const r = rng(7)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!
  const files: Record<string, string> = {}
  for (let i = 0; i < pages; i++) {
    const sentences = 1 + Math.floor(r() * (r() < 0.2 ? 3 : 14))
    const body = Array.from({ length: sentences }, () => {
      const words = Array.from({ length: 3 + Math.floor(r() * 5) }, () => (r() < 0.45 ? pick(COMMON) : pick(FILLER)))
      if (i % 40 === 0) words.push('quillwort')
      return `${words.join(' ')}.`
    }).join(' ')
    files[`${pick(FOLDERS)}/page-${i}.md`] = `# Page ${i}\n\n${body}\n`
  }
  return files
}

/** Records whether a keyword ranking ran every candidate or stopped on the tiers. */
function spy(tx: SqlExecutor, statements: string[]): SqlExecutor {
  return {
    ...tx,
    query: (sql, params, options) => {
      if (sql.includes('WITH ranked')) statements.push(sql.includes('search_tiers') ? 'tiers' : 'full')
      return tx.query(sql, params, options)
    },
  }
}

engineTest(t, 'a ranking through the impact tiers returns exactly what ranking every candidate returns', async (t, { db }) => {
  const dir = writeTree('brain-tiers-', corpus(2600))
  try {
    await importFolder(db, dir, { strategy: 'markdown', sourceId: 'default', embedder: null })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const queries: [string, KeywordMatch][] = [
    ['garden', 'any'],
    ['garden harvest', 'any'],
    ['garden harvest', 'all'],
    ['garden zzqxv', 'any'],
    ['compost quillwort', 'any'],
    ['"garden harvest"', 'any'],
    ['soil -compost', 'any'],
    ['harvest compost soil seed', 'two'],
  ]
  const boosts = [null, 'writing/:3', 'notes:2,originals/:1.05', 'daily/:0,people/:9']
  const windows = [
    { limit: 10, offset: 0 },
    { limit: 4, offset: 3 },
    { limit: 40, offset: 0 },
  ]
  let compared = 0
  let answeredByTiers = 0
  for (const [query, match] of queries) {
    for (const sourceBoostRaw of boosts) {
      for (const window of windows) {
        for (const perPage of [true, false]) {
          const plan = planSearch(window, { excludeRaw: null, sourceBoostRaw })
          const statements: string[] = []
          const tiered = await withSearchTransaction(db, (tx) => keywordRows(spy(tx, statements), plan, { query, match, perPage }))
          const full = await withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query, match, perPage, exhaustive: true }))
          const label = `${query} (${match}) boosts=${sourceBoostRaw ?? 'default'} ${window.limit}+${window.offset} ${perPage ? 'pages' : 'chunks'}`
          t.same(
            tiered.map((row) => [row.slug, row.chunk_index, row.score]),
            full.map((row) => [row.slug, row.chunk_index, row.score]),
            label,
          )
          compared++
          if (statements.includes('tiers') && !statements.includes('full')) answeredByTiers++
        }
      }
    }
  }
  // A word no chunk holds changes no score, and costs no pass over chunks holding two words.
  for (const [withMissing, without] of [
    ['garden zzqxv', 'garden'],
    ['garden harvest zzqxv', 'garden harvest'],
  ]) {
    for (const perPage of [true, false]) {
      const plan = planSearch({ limit: 10, offset: 0 }, { excludeRaw: null, sourceBoostRaw: null })
      const ran: string[][] = [[], []]
      const rows = []
      for (const [i, query] of [withMissing!, without!].entries()) rows.push(await withSearchTransaction(db, (tx) => keywordRows(spy(tx, ran[i]!), plan, { query, match: 'any', perPage })))
      t.same(
        rows[0]!.map((row) => [row.slug, row.chunk_index, row.score]),
        rows[1]!.map((row) => [row.slug, row.chunk_index, row.score]),
        `${withMissing} ranks as ${without}`,
      )
      t.equal(ran[0]!.length, ran[1]!.length, `${withMissing} runs as many ranking statements as ${without}`)
    }
  }
  t.ok(answeredByTiers >= compared / 2, `the tiers answered ${answeredByTiers} of ${compared} rankings without ranking every candidate`)
})
