/**
 * chunkCode: source file → chunk drafts cut at syntax boundaries.
 */
import type { Node, Tree } from 'web-tree-sitter'
import { topLevelNodes, walkRange, type WalkContext } from './collect-units.js'
import { parseEmbedded } from './embedded.js'
import { fallbackUnits } from './fallback.js'
import { getParser } from './grammar-loader.js'
import { LineIndex } from './line-index.js'
import { displayLanguage, grammarFor, isCodeLanguage, languageForPath, type CodeLanguage } from './languages.js'
import { coalescePieces, foldTrivial, mergeSmallSiblings } from './merge-split.js'
import { rulesFor } from './rules/index.js'
import { ROOT_SCOPE } from './symbol-extraction.js'
import { parseFailed, parseWithinBudget } from './syntax.js'
import { estimateTokens } from './tokens.js'
import type { ChunkDraft } from './types.js'
import { MERGED_SYMBOL_TYPE, type Unit } from './units.js'

/**
 * Default chunk size budget, in estimated tokens of code (the header line comes on top).
 * 400 tokens is about 1,600 characters, 40-60 lines of code: one typical function or a
 * small class per chunk, so a hit points at one definition rather than a whole file, while
 * the merge threshold (15% = 60 tokens, roughly 6-8 lines) still gathers one-liners
 * into shared chunks. It also stays far below every embedding model's input cap.
 */
export const DEFAULT_CHUNK_SIZE_TOKENS = 400

/** Budgets below this make headers dominate chunks; smaller requests are raised to it. */
const MIN_CHUNK_SIZE_TOKENS = 16

/** Larger inputs (minified bundles, generated data) skip parsing and use the fallback. */
const MAX_PARSE_CHARS = 1_000_000

export interface ChunkCodeInput {
  path: string
  content: string
  /** Overrides detection from the path; null forces the plain-text fallback. */
  language?: CodeLanguage | null
  chunkSizeTokens?: number
  /** False chunks by lines without parsing (the language is kept); default true. */
  syntax?: boolean
  /**
   * Called with the parsed tree before it is freed, when the file parsed well enough to chunk
   * by syntax; lets callers read more from the same parse (definitions, call sites) without
   * parsing twice.
   */
  onTree?: (root: Node, language: CodeLanguage) => void
}

export function normalizeBudget(tokens: number | undefined): number {
  if (tokens === undefined || !Number.isFinite(tokens)) return DEFAULT_CHUNK_SIZE_TOKENS
  return Math.max(MIN_CHUNK_SIZE_TOKENS, Math.floor(tokens))
}

export async function chunkCode(input: ChunkCodeInput): Promise<ChunkDraft[]> {
  const budget = normalizeBudget(input.chunkSizeTokens)
  const content = input.content.startsWith('\uFEFF') ? input.content.slice(1) : input.content
  if (content.trim() === '') return []
  const requested = input.language === undefined ? languageForPath(input.path) : input.language
  // Callers outside the type system may pass any string; unknown ones get the fallback.
  const lang = requested !== null && isCodeLanguage(requested) ? requested : null
  const lines = new LineIndex(content)
  let units: Unit[] | null = null
  if (lang !== null && input.syntax !== false && content.length <= MAX_PARSE_CHARS) {
    units = await syntaxUnits(lang, input.path, content, lines, budget, input.onTree)
  }
  units ??= fallbackUnits(lines, budget)
  return toDrafts(units, lines, input.path, lang)
}

/** Units cut at syntax boundaries, or null when the file does not parse well enough. */
async function syntaxUnits(lang: CodeLanguage, path: string, content: string, lines: LineIndex, budget: number, onTree: ChunkCodeInput['onTree']): Promise<Unit[] | null> {
  const parser = await getParser(grammarFor(lang, path))
  const trees: Tree[] = []
  try {
    const tree = parseWithinBudget(parser, content)
    if (tree === null) return null
    trees.push(tree)
    if (parseFailed(tree.rootNode)) return null
    const embedded = await parseEmbedded(lang, tree.rootNode, content)
    trees.push(...embedded.trees)
    const rules = rulesFor(lang)
    const ctx: WalkContext = { rules, lines, budgetTokens: budget, out: [], embedded: embedded.regions }
    walkRange(ctx, topLevelNodes(tree.rootNode, rules), 0, lines.count - 1, ROOT_SCOPE, { sym: null, piece: false }, 0)
    const folded = foldTrivial(lines, ctx.out, budget)
    const units = mergeSmallSiblings(lines, coalescePieces(lines, folded, budget), budget)
    onTree?.(tree.rootNode, lang)
    return units
  } catch {
    // A grammar or walker failure on one file must not fail the import: fall back.
    return null
  } finally {
    // Trees live in wasm memory, outside the garbage collector's reach.
    for (const tree of trees) tree.delete()
  }
}

function symbolLabel(unit: Unit, qualified: string | null): string {
  if (unit.merged !== undefined) return `merged (${unit.merged} siblings)`
  return qualified ?? unit.sym?.type ?? 'module'
}

function toDrafts(units: Unit[], lines: LineIndex, path: string, lang: CodeLanguage | null): ChunkDraft[] {
  const display = lang === null ? 'Text' : displayLanguage(lang)
  return units.map((unit, chunkIndex) => {
    const sym = unit.sym
    const name = sym?.name ?? null
    const parentPath = sym !== null && sym.parentPath.length > 0 ? [...sym.parentPath] : null
    const qualified = name === null ? null : [...(parentPath ?? []), name].join('.')
    const header = `[${display}] ${path}:${unit.start + 1}-${unit.end + 1} ${symbolLabel(unit, qualified)}`
    const body = unit.fragment ?? lines.text(unit.start, unit.end)
    const text = `${header}\n${body}`
    return {
      chunkIndex,
      text,
      source: 'code',
      tokenCount: estimateTokens(text),
      language: lang,
      symbolName: name,
      symbolType: sym?.type ?? (unit.merged !== undefined ? MERGED_SYMBOL_TYPE : 'module'),
      startLine: unit.start + 1,
      endLine: unit.end + 1,
      parentSymbolPath: parentPath,
      docComment: sym?.doc ?? null,
      symbolNameQualified: qualified,
    }
  })
}
