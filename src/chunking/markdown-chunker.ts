/**
 * chunkMarkdown: a markdown page → prose chunks plus code chunks for its fenced blocks.
 *
 * Prose strategy (compiled_truth and timeline separately): recursive splitting with greedy
 * packing. The text is cut into sections at ATX headings; consecutive sections are packed
 * into one chunk while they fit the budget, so chunks start at headings whenever possible.
 * A section over the budget is cut into blocks at blank lines (a fenced block is one
 * block), packed the same way; an oversized block is cut into lines, a line into
 * sentences, then words, and finally characters. Text is never rewritten: a chunk is a
 * trimmed slice of the original.
 *
 * Ordering: compiled_truth prose chunks, then timeline prose chunks, then fence chunks in
 * document order (compiled_truth fences first); chunkIndex runs over all of them. Fences
 * stay inside the prose as well, so prose search keeps their context.
 *
 * Fence chunks: each recognised fence is chunked as code with the header path `fence-<n>`,
 * n being the fence's 1-based ordinal among all fences of the page (counting skipped
 * ones) and equal to `fenceIndex + 1` as given to onFenceError; their line numbers are
 * relative to the fence body.
 */
import { chunkCode, normalizeBudget, type ChunkCodeInput } from './code-chunker.js'
import { extractFences, fenceMask, type Fence } from './fences.js'
import { deadlineAfter } from './syntax.js'
import { estimateTokens, tokensToChars } from './tokens.js'
import type { ChunkDraft, ChunkSource } from './types.js'

/** Spec limit: fences chunked per page. */
export const DEFAULT_MAX_FENCES = 100

interface ChunkMarkdownInput {
  compiledTruth: string
  timeline: string
  chunkSizeTokens?: number
  /** Fences chunked per page (recognised, non-empty ones count); default 100. */
  maxFences?: number
  onFenceError?: (err: unknown, fenceIndex: number) => void
}

type CodeChunker = (input: ChunkCodeInput) => Promise<ChunkDraft[]>

/** The parse time all fences of one page may take together. */
const FENCES_PARSE_BUDGET_MS = 2000

export function chunkMarkdown(input: ChunkMarkdownInput): Promise<ChunkDraft[]> {
  return chunkMarkdownWith(input, chunkCode)
}

/** chunkMarkdown with the code chunker injected, so that fence failures can be exercised. */
export async function chunkMarkdownWith(input: ChunkMarkdownInput, codeChunker: CodeChunker): Promise<ChunkDraft[]> {
  const budget = normalizeBudget(input.chunkSizeTokens)
  const drafts: ChunkDraft[] = [
    ...splitProse(withoutDataFences(input.compiledTruth), budget).map((text) => proseDraft(text, 'compiled_truth')),
    ...splitProse(withoutDataFences(input.timeline), budget).map((text) => proseDraft(text, 'timeline')),
  ]
  const fences = [...extractFences(input.compiledTruth), ...extractFences(input.timeline)]
  const maxFences = Math.max(0, Math.floor(input.maxFences ?? DEFAULT_MAX_FENCES))
  // Each parse is bounded (parseBudgetMs), and so is the page: past this, fences are chunked
  // by lines, so a hundred hostile fences cannot hold the thread for a hundred budgets.
  const pastPageBudget = deadlineAfter(FENCES_PARSE_BUDGET_MS)
  let processed = 0
  for (let index = 0; index < fences.length && processed < maxFences; index++) {
    const fence = fences[index]!
    if (!isChunkable(fence)) continue
    processed++
    try {
      const chunks = await codeChunker({
        path: `fence-${index + 1}`,
        content: fence.body,
        language: fence.language,
        chunkSizeTokens: budget,
        syntax: !pastPageBudget(),
      })
      for (const chunk of chunks) drafts.push({ ...chunk, source: 'fenced_code' })
    } catch (err) {
      input.onFenceError?.(err, index)
    }
  }
  return drafts.map((draft, chunkIndex) => ({ ...draft, chunkIndex }))
}

/**
 * Fences that hold a drawing's data rather than words: the Excalidraw plugin keeps each drawing
 * of an Obsidian vault as a `compressed-json` block of its `.excalidraw.md` file, often hundreds
 * of kilobytes that no one searches for and that would only fill the index and the embeddings.
 */
const DATA_FENCE = /^compressed-json$/i

/** The text with its data fences left out, delimiters included; the page itself keeps them. */
function withoutDataFences(text: string): string {
  if (!text.includes('compressed-json')) return text
  const data = extractFences(text).filter((f) => DATA_FENCE.test(f.info))
  if (data.length === 0) return text
  const lines = text.split('\n')
  const keep = new Uint8Array(lines.length).fill(1)
  for (const fence of data) keep.fill(0, fence.openLine, fence.closeLine + 1)
  return lines.filter((_, i) => keep[i] === 1).join('\n')
}

function isChunkable(fence: Fence): boolean {
  return fence.language !== null && fence.body.trim() !== ''
}

function proseDraft(text: string, source: ChunkSource): ChunkDraft {
  return {
    chunkIndex: 0,
    text,
    source,
    tokenCount: estimateTokens(text),
    language: null,
    symbolName: null,
    symbolType: null,
    startLine: null,
    endLine: null,
    parentSymbolPath: null,
    docComment: null,
    symbolNameQualified: null,
  }
}

/** Prose split into trimmed chunks of at most `budget` estimated tokens. */
function splitProse(text: string, budget: number): string[] {
  const normalized = text.replace(/\r\n?/g, '\n')
  if (normalized.trim() === '') return []
  const budgetChars = tokensToChars(budget)
  return split(normalized, 0, budgetChars)
    .map((c) => c.trim())
    .filter((c) => c !== '')
}

type Splitter = (text: string, budgetChars: number) => string[]

/** Finest last; each part keeps its separators so that concatenation restores the text. */
const LEVELS: readonly Splitter[] = [
  (text) => splitLinesAt(text, (lines, mask, i) => mask[i] === 0 && /^ {0,3}#{1,6}(\s|$)/.test(lines[i]!)),
  (text) => splitLinesAt(text, (lines, mask, i) => mask[i - 1] === 0 && lines[i - 1]!.trim() === '' && lines[i]!.trim() !== ''),
  (text) => splitKeeping(text, /(?<=\n)/),
  (text) => splitKeeping(text, /(?<=[.!?]["')\]]?\s)/),
  (text) => splitKeeping(text, /(?<=\s)/),
  (text, budgetChars) => splitChars(text, budgetChars),
]

function split(text: string, level: number, budgetChars: number): string[] {
  if (text.length <= budgetChars) return [text]
  const splitter = LEVELS[Math.min(level, LEVELS.length - 1)]!
  const parts = splitter(text, budgetChars)
  if (parts.length <= 1 && level < LEVELS.length - 1) return split(text, level + 1, budgetChars)
  const out: string[] = []
  let current = ''
  for (const part of parts) {
    if (part.length > budgetChars) {
      if (current !== '') out.push(current)
      current = ''
      out.push(...split(part, level + 1, budgetChars))
    } else if (current.length + part.length > budgetChars) {
      out.push(current)
      current = part
    } else {
      current += part
    }
  }
  if (current !== '') out.push(current)
  return out
}

/** Cuts text before every line i for which `startsPart` holds. */
function splitLinesAt(text: string, startsPart: (lines: readonly string[], mask: Uint8Array, i: number) => boolean): string[] {
  const lines = text.split('\n')
  const mask = fenceMask(lines)
  const parts: string[] = []
  let current: string[] = []
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && startsPart(lines, mask, i) && current.length > 0) {
      parts.push(current.join('\n') + '\n')
      current = []
    }
    current.push(lines[i]!)
  }
  parts.push(current.join('\n'))
  return parts
}

function splitKeeping(text: string, separator: RegExp): string[] {
  return text.split(separator).filter((p) => p !== '')
}

function splitChars(text: string, budgetChars: number): string[] {
  const out: string[] = []
  for (let at = 0; at < text.length; at += budgetChars) out.push(text.slice(at, at + budgetChars))
  return out
}
