/**
 * Every definition of a code page, read from the parse tree with the chunker's own language
 * rules. Chunks are coarser than definitions: small functions share a merged chunk, and the
 * methods of a class that fits the budget stay inside the class's chunk; each is still a
 * definition that code-def and the call graph must find.
 */
import type { Node } from 'web-tree-sitter'
import { innerScope, ROOT_SCOPE, symbolFor, lastLine, type CodeLanguage, type Scope, type ChunkDraft } from '../../chunking/index.js'
import { rulesFor, type LanguageRules } from '../../chunking/rules/index.js'

export interface SymbolDraft {
  name: string
  /** Scope chain and name joined with dots: `Queue.submit`. */
  qualified: string
  symbolType: string
  /** 1-based, inclusive. */
  startLine: number
  endLine: number
}

export interface PageSymbol extends SymbolDraft {
  /** The chunk holding the definition's first line. */
  chunkIndex: number
}

/** Symbol types that are definitions worth indexing (not variables, keys or style rules). */
const INDEXED = new Set(['function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'contract', 'export statement', 'impl', 'extension'])
const CALLABLE_LEAVES = new Set(['function', 'method', 'variable', 'test'])
const NOT_CODE = new Set<CodeLanguage>(['css', 'html', 'json', 'yaml', 'toml'])
const MAX_DEPTH = 48

/** Every named definition in the tree, outermost first, in source order. */
export function extractDefinitions(root: Node, language: CodeLanguage): SymbolDraft[] {
  if (NOT_CODE.has(language)) return []
  const rules = rulesFor(language)
  const out: SymbolDraft[] = []
  visit(rules, root.namedChildren, ROOT_SCOPE, 0, out)
  return out
}

function visit(rules: LanguageRules, nodes: readonly Node[], scope: Scope, depth: number, out: SymbolDraft[]): void {
  if (depth > MAX_DEPTH) return
  for (const node of nodes) {
    const match = rules.classify(node, { moduleLevel: scope.moduleLevel })
    if (match === null) {
      visit(rules, node.namedChildren, scope, depth + 1, out)
      continue
    }
    const sym = symbolFor(match, scope, rules, null)
    if (sym.name !== null && INDEXED.has(sym.type)) {
      out.push({
        name: sym.name,
        qualified: [...sym.parentPath, sym.name].join('.'),
        symbolType: sym.type,
        startLine: node.startPosition.row + 1,
        endLine: lastLine(node) + 1,
      })
    }
    // Definitions inside function bodies (closures, local helpers) are not indexed; skipping
    // function bodies also skips most of the tree.
    if (CALLABLE_LEAVES.has(sym.type)) continue
    visit(rules, match.body === node ? node.namedChildren : match.body.namedChildren, innerScope(sym, scope), depth + 1, out)
  }
}

/** The chunk whose lines contain `line`; chunks are in line order. */
export function chunkAt(drafts: readonly ChunkDraft[], line: number): ChunkDraft | null {
  let found: ChunkDraft | null = null
  for (const draft of drafts) {
    if (draft.startLine === null || draft.endLine === null) continue
    if (draft.startLine > line) break
    if (draft.endLine >= line) found = draft
  }
  return found
}

/** Places each definition in the chunk holding its first line. */
export function placeSymbols(symbols: readonly SymbolDraft[], drafts: readonly ChunkDraft[]): PageSymbol[] {
  const out: PageSymbol[] = []
  for (const sym of symbols) {
    const chunk = chunkAt(drafts, sym.startLine)
    if (chunk !== null) out.push({ ...sym, chunkIndex: chunk.chunkIndex })
  }
  return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine)
}

/** The innermost definition containing a line, or null for top-level code. */
export function symbolAt(symbols: readonly PageSymbol[], line: number): PageSymbol | null {
  let best: PageSymbol | null = null
  for (const s of symbols) {
    if (s.startLine > line) break
    if (s.endLine >= line && (best === null || s.endLine - s.startLine <= best.endLine - best.startLine)) best = s
  }
  return best
}
