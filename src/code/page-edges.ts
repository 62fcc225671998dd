/**
 * The code graph of one page at import: definitions and call sites are read from the chunker's
 * own parse (no second parse) and written with the page's chunks, in the same transaction.
 */
import type { Node } from 'web-tree-sitter'
import type { CodeLanguage, ChunkDraft } from '../chunking/index.js'
import { extractCallSites, extractDefinitions, placeSymbols, planPageEdges, type CallSite, type PageEdge, type PageSymbol, type SymbolDraft } from './calls/index.js'

export interface PageCodeGraph {
  symbols: PageSymbol[]
  edges: PageEdge[]
}

export class CallSiteCollector {
  private sites: CallSite[] = []
  private definitions: SymbolDraft[] = []

  /** The chunker's onTree hook; a failure here must never cost the page its chunks. */
  readonly onTree = (root: Node, language: CodeLanguage): void => {
    try {
      this.definitions = extractDefinitions(root, language)
      this.sites = extractCallSites(root, language)
    } catch {
      this.definitions = []
      this.sites = []
    }
  }

  graph(drafts: readonly ChunkDraft[]): PageCodeGraph {
    const symbols = placeSymbols(this.definitions, drafts)
    return { symbols, edges: planPageEdges(drafts, symbols, this.sites) }
  }
}
