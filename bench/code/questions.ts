/**
 * Labelled questions about this project's own source tree (src/, workers/, supervisor/): where
 * a symbol is defined, what calls it, what it calls, and what is affected if it changes (callers
 * up to three hops). Expected files were read off the source by hand; for callees they are every
 * file defining something the symbol calls (recall@5 then counts at most five of them).
 */
export type QuestionKind = 'definition' | 'callers' | 'callees' | 'affected'

export interface Question {
  kind: QuestionKind
  symbol: string
  /** The question in words, for `query`. */
  text: string
  expected: string[]
}

const def = (symbol: string, file: string): Question => ({ kind: 'definition', symbol, text: `where is ${symbol} defined`, expected: [file] })
const callers = (symbol: string, ...files: string[]): Question => ({ kind: 'callers', symbol, text: `what calls ${symbol}`, expected: files })
const callees = (symbol: string, ...files: string[]): Question => ({ kind: 'callees', symbol, text: `what does ${symbol} call`, expected: files })
const affected = (symbol: string, ...files: string[]): Question => ({ kind: 'affected', symbol, text: `what is affected if ${symbol} changes`, expected: files })

export const QUESTIONS: Question[] = [
  def('importPage', 'src/pages/import-page.ts'),
  def('upsertChunks', 'src/pages/chunk-repository.ts'),
  def('chunkCode', 'src/chunking/code-chunker.ts'),
  def('reciprocalRankFusion', 'bench/retrieval/page-fusion.ts'),
  def('normalizeSlug', 'src/pages/slug.ts'),
  def('putPage', 'src/pages/put-page.ts'),
  def('planSearch', 'src/search/options.ts'),
  def('serializeError', 'src/errors/index.ts'),
  def('createAutopilotHandler', 'workers/autopilot-cycle.ts'),
  def('runJob', 'src/cli/job-runner.ts'),
  def('BrainCommand', 'src/cli/brain-command.ts'),
  def('UsageError', 'src/errors/index.ts'),
  def('codeDef', 'src/code/navigation.ts'),
  def('reconcileLinks', 'src/links/reconcile.ts'),

  callers('importPage', 'src/intake/import/import-files.ts', 'src/intake/sync/dry-run.ts', 'src/pages/put-page.ts'),
  callers('upsertChunks', 'src/pages/import-page.ts'),
  callers('chunkCode', 'src/pages/import-page.ts'),
  callers('reciprocalRankFusion', 'bench/retrieval/page-fusion.ts'),
  callers('planSearch', 'src/search/api.ts'),
  callers('hybridSearch', 'src/search/api.ts'),
  callers('withSearchTransaction', 'src/search/hybrid.ts', 'src/search/api.ts', 'src/search/vector.ts'),
  callers('embedAndStore', 'src/intake/import/import-files.ts', 'src/embedding/store/run-embed.ts', 'src/pages/import-page.ts'),
  callers('getParser', 'src/chunking/code-chunker.ts', 'src/chunking/embedded.ts'),
  callers('importFiles', 'src/intake/import/import-folder.ts', 'src/intake/sync/apply.ts'),
  callers('addCitationLinks', 'src/links/import-links.ts', 'src/links/reconcile.ts'),
  callers('resolveExcludes', 'src/search/options.ts'),

  callees('planSearch', 'src/search/options.ts'),
  callees('linkImportedMarkdown', 'src/links/citations.ts', 'src/links/repository.ts', 'src/links/reconcile.ts'),
  callees('search', 'src/search/options.ts', 'src/search/keyword.ts', 'src/search/sql.ts', 'src/search/context.ts', 'src/search/rows.ts', 'src/search/near-symbol.ts'),
  callees('runJob', 'src/cli/job-runner.ts', 'src/queue/facade.ts', 'src/util/logger.ts'),
  callees('putPage', 'src/pages/import-page.ts', 'src/pages/slug.ts', 'src/pages/serialize.ts', 'src/pages/write-through.ts', 'src/pages/page-repository.ts', 'src/pages/put-page.ts'),
  callees('deriveLinks', 'src/links/reconcile.ts', 'src/links/citations.ts', 'src/links/repository.ts'),
  callees('codeDef', 'src/code/query-args.ts', 'src/code/navigation.ts'),
  callees('getCallersOf', 'src/code/query-args.ts', 'src/code/graph.ts'),
  callees('addCodeEdges', 'src/code/edges.ts', 'src/errors/index.ts'),
  callees('chunkCode', 'src/chunking/code-chunker.ts', 'src/chunking/languages.ts', 'src/chunking/fallback.ts', 'src/chunking/line-index.ts'),

  affected('upsertChunks', 'src/pages/import-page.ts', 'src/intake/import/import-files.ts', 'src/pages/put-page.ts', 'src/intake/sync/dry-run.ts'),
  affected('chunkCode', 'src/pages/import-page.ts', 'src/intake/import/import-files.ts', 'src/pages/put-page.ts'),
  affected('reciprocalRankFusion', 'bench/retrieval/page-fusion.ts', 'bench/retrieval/tune-fusion.ts', 'bench/retrieval/vector-windows.ts'),
  affected('addCitationLinks', 'src/links/import-links.ts', 'src/links/reconcile.ts', 'src/pages/import-page.ts', 'workers/extract.ts'),
  affected('pageCitations', 'src/links/import-links.ts', 'src/links/reconcile.ts', 'src/pages/import-page.ts'),
  affected('getParser', 'src/chunking/code-chunker.ts', 'src/chunking/embedded.ts', 'src/pages/import-page.ts'),
  affected('keywordRows', 'src/search/hybrid.ts', 'src/search/api.ts'),
  affected('findDefinitionRows', 'src/code/navigation.ts', 'src/code/graph.ts', 'src/search/near-symbol.ts'),
]
