/**
 * Code intelligence: definitions, references and the call graph over code pages.
 * May import: chunking, db, errors.
 */
export { codeDef, DEFINITION_TYPES, SNIPPET_CHARS, type CodeDefQuery, type CodeDefinition, type CodeLocation, type CodeReference } from './navigation.js'
export { codeRefs, REFS_PROBE_ROWS, type RefsOptions } from './refs.js'
export { getCallersOf, getCalleesOf, DEFAULT_GRAPH_DEPTH, MAX_GRAPH_DEPTH, DEFAULT_GRAPH_LIMIT, type CodeGraphQuery, type CodeGraphNode, type CodeGraphResponse } from './graph.js'
export { addCodeEdges, deleteCodeEdgesForChunks, getEdgesByChunk, insertCodeGraphsOfNewPages, replacePageCodeGraph, lastSegment, type CodeEdgeInput, type CodeEdgeResult } from './edges.js'
export { DEFAULT_CODE_LIMIT, MAX_CODE_LIMIT } from './query-args.js'
export { fileSymbols, type FileSymbol } from './file-symbols.js'
export { CallSiteCollector, type PageCodeGraph } from './page-edges.js'
export { extractCallSites, extractDefinitions, planPageEdges, CALL_RULES, type CallSite, type CallEdgeType, type PageEdge, type PageSymbol } from './calls/index.js'

import type { SqlExecutor } from '../db/index.js'
import { getCalleesOf, getCallersOf, type CodeGraphQuery, type CodeGraphResponse } from './graph.js'

/** Who calls the symbol: direct callers, or all within `depth` hops (blast radius). */
export function codeCallers(db: SqlExecutor, query: CodeGraphQuery): Promise<CodeGraphResponse> {
  return getCallersOf(db, query)
}

/** What the symbol calls: direct callees, or all within `depth` hops. */
export function codeCallees(db: SqlExecutor, query: CodeGraphQuery): Promise<CodeGraphResponse> {
  return getCalleesOf(db, query)
}
