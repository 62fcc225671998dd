import { z } from 'zod'
import type { SearchOptions } from '../../search/index.js'
import { defineTool, type ToolDefinition } from '../tool.js'

const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(2000).describe('What to look for'),
  limit: z.number().int().min(1).max(100).optional().describe('Results per call, 1–100 (default 10)'),
  offset: z.number().int().min(0).max(1000).optional(),
  detail: z.enum(['low', 'medium', 'high']).optional().describe('high turns the source boost off (use for "when did…" questions)'),
  language: z.string().max(50).optional().describe('Only code chunks of this language (typescript, python, …)'),
  symbol_kind: z.string().max(50).optional().describe('Only chunks of this symbol type (function, class, …)'),
  source: z.string().max(200).optional().describe('Only pages of this source id'),
})

function options(args: z.output<typeof searchInput>): SearchOptions {
  return { limit: args.limit, offset: args.offset, detail: args.detail, language: args.language, symbolKind: args.symbol_kind, sourceId: args.source }
}

export const searchTool = defineTool({
  name: 'search',
  description:
    'Keyword (full-text) search over every page and code chunk, one best result per page, ranked by text relevance and source boost. Fast and exact: use it for names, identifiers, quoted phrases. Supports "exact phrase", -excluded and or. Returns {results: [{slug, title, score, snippet, …}]}.',
  input: searchInput,
  mutating: false,
  async run(ctx, args) {
    const { search, searchContext } = await import('../../search/index.js')
    const { db, config } = await ctx.brain()
    return { ...(await search(searchContext(db, config), args.query, options(args))) }
  },
})

export const queryTool = defineTool({
  name: 'query',
  description:
    'Hybrid search for a natural-language question: keyword (BM25) and embedding (semantic) results fused into one ranking. Use it when wording may differ from the notes; use search for exact terms. Falls back to keyword-only (and says so in notice) when no embeddings exist.',
  input: searchInput,
  mutating: false,
  async run(ctx, args) {
    const { query, searchContext } = await import('../../search/index.js')
    const { db, config } = await ctx.brain()
    return { ...(await query(searchContext(db, config), args.query, options(args))) }
  },
})

export const searchTools: ToolDefinition[] = [searchTool, queryTool]
