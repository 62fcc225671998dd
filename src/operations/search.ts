import * as z from 'zod'
import type { SearchOptions, SearchResponse } from '../search/index.js'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation, type CliOption, type CliShape, type Operation, type Presenter, type TextView } from './operation.js'

const slugPrefixes = z.array(z.string().trim().min(1).max(500)).max(100).optional()

const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(2000).describe('What to look for'),
  limit: z.number().int().min(1).max(100).optional().describe('Default 10'),
  offset: z.number().int().min(0).max(1000).optional(),
  // Checked by the search itself, which trims and lower-cases: ` High ` is `high`.
  detail: z.string().max(20).optional().describe('low, medium (default) or high (no source boost: for "when did…")'),
  language: z.string().max(50).optional().describe('Only code in this language'),
  symbol_kind: z.string().max(50).optional().describe('Only code symbols of this kind (function, class…)'),
  source: z.string().max(200).optional().describe('Only this source id'),
  type: z.string().max(100).optional().describe('Only this page type'),
  tag: z.string().max(200).optional().describe('Only pages with this tag'),
  include_slug_prefixes: slugPrefixes.describe('Excluded-by-default prefixes to search too (test/…)'),
  exclude_slug_prefixes: slugPrefixes.describe('Slug prefixes to leave out'),
  near_symbol: z.string().trim().min(1).max(500).optional().describe('Boost code near this symbol in the call graph'),
  walk_depth: z.number().int().optional().describe('Hops from near_symbol, 0–3 (default 1)'),
  graph_boost: z.boolean().optional().describe('Rank linked and much-linked pages higher'),
  rerank: z.boolean().optional().describe('query only: local re-ranker (default on when configured)'),
})

type SearchArgs = z.output<typeof searchInput>

function options(args: SearchArgs): SearchOptions {
  return {
    limit: args.limit,
    offset: args.offset,
    detail: args.detail,
    language: args.language,
    symbolKind: args.symbol_kind,
    sourceId: args.source,
    pageType: args.type,
    tag: args.tag,
    include_slug_prefixes: args.include_slug_prefixes,
    exclude_slug_prefixes: args.exclude_slug_prefixes,
    nearSymbol: args.near_symbol,
    walkDepth: args.walk_depth,
    graphBoost: args.graph_boost,
    rerank: args.rerank,
  }
}

/** `[score] slug -- snippet`, one line per result; `No results.` when there are none. */
export function formatResults(response: Pick<JsonCamelCased<SearchResponse>, 'results'>, snippet: (text: string) => string = (text) => text): string {
  if (response.results.length === 0) return 'No results.'
  return response.results.map((r) => `[${r.score.toFixed(4)}] ${r.slug}${r.symbolType === 'pdf_page' ? ` (${r.symbolName})` : ''} -- ${snippet(r.snippet)}`).join('\n')
}

const SEARCH_FLAGS: CliOption[] = [
  { field: 'limit', flag: '--limit', kind: 'integer', description: 'Results per call, 1–100 (default 10)' },
  { field: 'offset', flag: '--offset', kind: 'integer', description: 'Results to skip, 0–1000 (default 0)' },
  { field: 'detail', flag: '--detail', kind: 'string', description: 'low, medium (default) or high; high turns the source boost off' },
  { field: 'language', flag: '--lang', kind: 'string', description: 'Only code chunks of this language (typescript, ts, python, …)' },
  { field: 'symbol_kind', flag: '--symbol-kind', kind: 'string', description: 'Only chunks of this symbol type (function, class, …)' },
  { field: 'source', flag: '--source', kind: 'string', description: 'Only pages of this source id' },
  { field: 'type', flag: '--type', kind: 'string', description: 'Only pages of this type (note, person, …)' },
  { field: 'tag', flag: '--tag', kind: 'string', description: 'Only pages carrying this tag' },
  { field: 'include_slug_prefixes', flag: '--include-slug-prefixes', kind: 'list', description: 'Search these hard-excluded slug prefixes too (comma-separated or repeated), e.g. test/' },
  { field: 'exclude_slug_prefixes', flag: '--exclude-slug-prefixes', kind: 'list', description: 'Never return pages under these slug prefixes (comma-separated or repeated)' },
  { field: 'near_symbol', flag: '--near-symbol', kind: 'string', description: 'Boost results near this symbol in the call graph' },
  { field: 'walk_depth', flag: '--walk-depth', kind: 'integer', description: 'Call-graph hops from --near-symbol that earn a boost, 0–3 (default 1)' },
  { field: 'graph_boost', flag: '--graph-boost', kind: 'boolean', description: 'Rank results that link to each other, and much-linked pages, higher' },
  { field: 'rerank', flag: '--rerank', kind: 'boolean', description: 'query: re-score the first results with the local re-ranker (search.reranker); --no-rerank skips it' },
]

function searchCli(path: string, usage: Pick<CliShape, 'description' | 'details' | 'examples'>): CliShape {
  return { path: [path], ...usage, positional: { field: 'query', rest: true, required: true }, options: SEARCH_FLAGS }
}

/** The query's words emphasised in each snippet where the view can show it (bold on a terminal). */
async function resultsText(response: JsonCamelCased<SearchResponse>, view?: TextView): Promise<string> {
  const emphasis = view?.emphasis
  if (!emphasis) return formatResults(response)
  const { markMatches, queryTerms } = await import('../search/index.js')
  const terms = queryTerms(response.query)
  return formatResults(response, (text) => markMatches(text, terms, emphasis))
}

const presentResults: Presenter<SearchResponse> = { text: resultsText, notice: (r) => r.notice }

export const searchTool = defineOperation({
  name: 'search',
  description: 'Keyword search, one best hit per page: call it for exact names, identifiers and phrases ("exact phrase", -word, or). Returns results with slug, title, score and snippet.',
  input: searchInput,
  mutating: false,
  memory: true,
  async run(ctx, args) {
    const { search, searchDeps } = await import('../search/index.js')
    const { db, config } = await ctx.brain()
    return { ...(await search(searchDeps(db, config), args.query, options(args))) }
  },
  present: presentResults,
  cli: searchCli('search', {
    description: 'Keyword search: full text over chunks, one result per page',
    details:
      'Pages holding any of the words, ranked by BM25 (more and rarer words first, shorter chunks before longer ones) times the source boost of the page\'s slug prefix; one result per page. Web-search syntax: "exact phrase" must match, -word and -"phrase" must not, word* matches a prefix.\n\nPages under test/, archive/, attachments/, .raw/ and BRAIN_SEARCH_EXCLUDE (comma-separated slug prefixes) are never returned, unless --include-slug-prefixes names them; --exclude-slug-prefixes adds prefixes for one call. BRAIN_SOURCE_BOOST overrides the boosts as comma-separated prefix:factor entries, e.g. "projects/:1.3,scratch/:0.2"; factor 0 ranks a prefix last, a negative factor is an error. --detail high turns the boost off.',
    examples: [
      ['Find notes', '$0 search postgres vacuum'],
      ['Only TypeScript functions', '$0 search --lang ts --symbol-kind function "open database"'],
      ['Include the tests', '$0 search --include-slug-prefixes test/ fixture'],
    ],
  }),
})

export const queryTool = defineOperation({
  name: 'query',
  description: 'Keyword plus semantic search: call it for a question whose wording may differ from the notes (keyword-only, with a notice, when nothing is embedded). Returns results as search does.',
  input: searchInput,
  mutating: false,
  memory: true,
  async run(ctx, args) {
    const { query, searchDeps } = await import('../search/index.js')
    const { db, config } = await ctx.brain()
    return { ...(await query(searchDeps(db, config), args.query, options(args))) }
  },
  present: presentResults,
  cli: searchCli('query', {
    description: 'Hybrid search: keyword (BM25) and vector results fused into one ranking',
    details:
      'The question is embedded with the configured provider and matched against chunk embeddings of that model, and its words are matched as in `brain search` (any word); the two lists are fused per chunk, 0.3 × the BM25 score normalised within the keyword list plus 0.7 × the cosine similarity, and each page stands for its best chunk. When no chunk has an embedding of the active model, or the question cannot be embedded, it runs keyword-only and says so.',
    examples: [['Ask a question', '$0 query "how did we decide on the storage engine?"']],
  }),
})

export const searchTools: Operation[] = [searchTool, queryTool]
