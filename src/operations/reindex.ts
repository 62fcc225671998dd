import * as z from 'zod'
import { defineOperation } from './operation.js'

/**
 * Rebuilds the keyword index, optionally in another text-search language. Admin: it changes a
 * brain-wide setting and rewrites every page and chunk vector.
 */
export const reindexSearchTool = defineOperation({
  name: 'reindex_search',
  description:
    "Rebuild the keyword search index: every page and chunk vector, optionally switching the brain's search language (a PostgreSQL text-search configuration such as english, german, french, simple; without it the current one). BM25 term statistics stay exact while the vectors are rewritten. Returns {language, pages, chunks}.",
  input: z.strictObject({
    language: z.string().trim().min(1).max(63).optional().describe('Text-search configuration to use from now on (default: the current one)'),
  }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { getSearchLanguage, setSearchLanguage } = await import('../search/index.js')
    const { db } = await ctx.brain()
    const onProgress = ctx.onProgress
    const report = onProgress ? (p: { table: string; done: number; total: number }) => onProgress({ done: p.done, total: p.total, message: p.table }) : undefined
    return { ...(await setSearchLanguage(db, args.language ?? (await getSearchLanguage(db)), report)) }
  },
  present: { text: (r) => `Re-indexed ${r.pages} pages and ${r.chunks} chunks with search.language = ${r.language}` },
})
