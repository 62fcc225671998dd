/**
 * Small helpers over web-tree-sitter nodes shared by the chunker and the language rules.
 */
import type { Node, ParseOptions, Parser, Tree } from 'web-tree-sitter'

/** 0-based first line of a node. */
export function firstLine(node: Node): number {
  return node.startPosition.row
}

/**
 * 0-based last line of a node. A node that ends at column 0 (it swallowed the newline,
 * as line comments and preprocessor lines do) really ends on the previous line.
 */
export function lastLine(node: Node): number {
  const end = node.endPosition
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row
}

export function isComment(node: Node): boolean {
  return node.type.includes('comment')
}

/** Node types that usually carry a definition's identifier. */
const NAME_TYPES = new Set([
  'identifier',
  'type_identifier',
  'constant',
  'simple_identifier',
  'name',
  'property_identifier',
  'field_identifier',
  'word',
  'namespace_identifier',
  'package_identifier',
  'private_property_identifier',
  'upper_case_identifier',
  'lower_case_identifier',
  'value_name',
  'module_name',
  'type_constructor',
  'class_name',
  'module_type_name',
  'constructor_name',
  'alias',
  'bare_key',
  'tag_name',
])

/** The identifier of a definition: its `name` field, else its first identifier-like child. */
export function defaultName(node: Node): string | null {
  const named = node.childForFieldName('name')
  if (named !== null) return cleanName(named.text)
  for (const child of node.namedChildren) {
    if (NAME_TYPES.has(child.type)) return cleanName(child.text)
  }
  return null
}

const MAX_NAME = 200

/** Normalises a symbol name: single-spaced, trimmed, bounded; empty becomes null. */
export function cleanName(raw: string): string | null {
  const name = raw.replace(/\s+/g, ' ').trim()
  if (name === '') return null
  return name.length > MAX_NAME ? name.slice(0, MAX_NAME) : name
}

/** True when an unnamed (keyword) child with this exact text exists, e.g. `interface`. */
export function hasKeyword(node: Node, keyword: string): boolean {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (child !== null && !child.isNamed && child.type === keyword) return true
  }
  return false
}

/** Strips one layer of matching quotes from a string literal's text. */
export function unquote(text: string): string {
  const t = text.trim()
  const m = /^(?:"""|'''|["'`])([\s\S]*?)(?:"""|'''|["'`])$/.exec(t)
  return m !== null && m[1] !== undefined ? m[1] : t
}

/**
 * How long one parse may hold the thread, by size: files are untrusted input. Ordinary source
 * parses at about 0.6 ms per KB here (822 KB of TypeScript in 0.5 s), but 400 KB of shuffled
 * brackets took 1.9 s, and a file near the parse size limit could stall the service, and every
 * other client, for many seconds. The budget leaves ordinary code about twice its time; a file
 * that needs longer is chunked by lines, as a file that does not parse is.
 */
export function parseBudgetMs(chars: number): number {
  return 200 + chars / 1000
}

/**
 * How long a reading of the process's CPU time is reused. `process.cpuUsage` sums every thread
 * of the process (7–10 µs a call while V8's compiler threads run beside an import), and an import
 * takes one reading per page and per code block: 7,213 for 6,000 notes, 170 with reuse. A reading a
 * few milliseconds old moves a deadline of at least 200 ms by no more than that.
 */
const CPU_READING_REUSE_MS = 5
let lastReading = { at: Number.NEGATIVE_INFINITY, cpuMs: 0 }

/** CPU time this process has used, in milliseconds, as read at most CPU_READING_REUSE_MS ago. */
function cpuMs(): number {
  const now = performance.now()
  if (now - lastReading.at >= CPU_READING_REUSE_MS) {
    const used = process.cpuUsage()
    lastReading = { at: now, cpuMs: (used.user + used.system) / 1000 }
  }
  return lastReading.cpuMs
}

/**
 * A deadline `ms` from now that passes only once both the wall clock and the process's CPU time
 * have run past it. A busy machine stretches the wall clock and other threads of a busy process
 * add CPU time, so either alone would cut ordinary parses short under load; a parse that really
 * holds the thread moves both.
 */
export function deadlineAfter(ms: number): () => boolean {
  const wallEnd = performance.now() + ms
  const cpuEnd = cpuMs() + ms
  return () => performance.now() > wallEnd && cpuMs() > cpuEnd
}

/** Parses within its budget; null when the parse was cut off (the parser is reset for the next). */
export function parseWithinBudget(parser: Parser, content: string, options: Omit<ParseOptions, 'progressCallback'> = {}, budgetMs = parseBudgetMs(content.length)): Tree | null {
  const past = deadlineAfter(budgetMs)
  // The runtime cancels when the callback returns true; the declared type says void.
  const progressCallback = past as unknown as ParseOptions['progressCallback']
  const tree = parser.parse(content, null, { ...options, progressCallback })
  // A cancelled parser would otherwise resume this parse on its next call.
  if (tree === null) parser.reset()
  return tree
}

/** A tree whose top-level error nodes span more than this share of its lines counts as failed. */
const MAX_ERROR_SHARE = 0.5

/**
 * Whether a parse is too broken to chunk by syntax. Small errors are tolerated (the
 * definitions around them still parse); a root that is itself an error, or top-level
 * error nodes over half of the lines, mean the grammar did not understand the file.
 */
export function parseFailed(root: Node): boolean {
  if (!root.hasError) return false
  if (root.isError) return true
  let errorLines = 0
  for (const child of root.namedChildren) {
    if (child.isError) errorLines += lastLine(child) - firstLine(child) + 1
  }
  const totalLines = lastLine(root) - firstLine(root) + 1
  return errorLines > Math.max(1, totalLines) * MAX_ERROR_SHARE
}
