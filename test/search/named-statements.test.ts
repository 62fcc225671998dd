// test-runner: shares a process
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { writeMarkdownCorpus } from '../../bench/import/corpus.js'
import type { SqlExecutor } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import { keywordRows } from '../../src/search/keyword.js'
import { planSearch } from '../../src/search/options.js'
import { withSearchTransaction } from '../../src/search/sql.js'
import { engineTest } from '../helpers/engines.js'

/** The bench/scale queries: common words, absent words, and boosted folders that need wider passes. */
const QUERIES = ['garden tomatoes', 'dovetail joint', 'typescript generics', 'exposure triangle', 'sourdough starter', 'monthly plan', 'climbing grades', 'schedule review']

/** The same transaction with every statement sent unnamed, parsed and planned at each run. */
function unnamed(tx: SqlExecutor, count: { statements: number }): SqlExecutor {
  return {
    query: (text, params) => {
      count.statements++
      return tx.query(text, params)
    },
    exec: (sql) => tx.exec(sql),
  }
}

engineTest(t, 'keyword rankings are the same whether their statements are kept prepared or not', async (t, { db }) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-named-'))
  try {
    writeMarkdownCorpus(dir, 1000)
    await importFolder(db, dir, { strategy: 'markdown', sourceId: 'default', embedder: null })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  let widened = 0
  for (const query of QUERIES) {
    for (const [limit, perPage] of [
      [10, true],
      [20, true],
      [50, false],
    ] as const) {
      const plan = planSearch({ limit }, { excludeRaw: null, sourceBoostRaw: null })
      const request = { query, match: 'any', perPage } as const
      // Twice each way: the second named run reuses the statements (and plans) of the first.
      const runs = []
      const count = { statements: 0 }
      for (let i = 0; i < 2; i++) {
        runs.push(await withSearchTransaction(db, (tx) => keywordRows(tx, plan, request)))
        runs.push(await withSearchTransaction(db, (tx) => keywordRows(unnamed(tx, count), plan, request)))
      }
      // The preparing statement and the ranking; more when a tier pass had to be widened.
      if (count.statements > 2 * 2) widened++
      const shown = runs.map((rows) => rows.map((row) => [row.slug, row.chunk_index, row.score]))
      t.ok(shown[0]!.length > 0, `${query}: ${limit} ${perPage ? 'pages' : 'chunks'} found`)
      for (let i = 1; i < shown.length; i++) t.same(shown[i], shown[0], `${query}: ${limit} ${perPage ? 'pages' : 'chunks'}, run ${i + 1}`)
    }
  }
  t.ok(widened > 0, `${widened} rankings ran more than one ranking statement`)
})
