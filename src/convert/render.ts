import { createHash } from 'node:crypto'
import { proseLines } from '../util/index.js'
import type { PageDraft } from './types.js'

/** sha256 of the original file, stored as `source_hash` so an unchanged file re-imports as a no-op. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** sha256 of an unpacked export: each file's path and bytes, in path order. */
export function hashFiles(files: Readonly<Record<string, Uint8Array>>): string {
  const hash = createHash('sha256')
  for (const name of Object.keys(files).sort()) hash.update(`${name}\0${files[name]!.byteLength}\0`).update(files[name]!)
  return hash.digest('hex')
}

/**
 * A draft as page text for the import pipeline: YAML front matter then the body. Values are
 * written as JSON, which YAML reads as flow scalars, so titles with colons or quotes stay intact.
 */
export function renderDraft(draft: PageDraft, sourceHash: string): string {
  const fields: Record<string, unknown> = { title: draft.title, ...draft.frontmatter, source_hash: sourceHash }
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
  return `---\n${lines.join('\n')}\n---\n\n${draft.body}`
}

const ATX_HEADING = /^( {0,3})(#{1,6})(?=[ \t]|$)/

/**
 * Pushes the headings of a text written inside a page section down by `levels` (to at most
 * `######`), so a message's own `# Heading` nests under the section that holds it instead of
 * reading as a new message or a second page title. Lines in fenced code stay as written.
 */
export function nestHeadings(markdown: string, levels: number): string {
  const lines = markdown.split('\n')
  for (const line of proseLines(markdown)) {
    lines[line.index] = line.raw.replace(ATX_HEADING, (_m, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, hashes.length + levels))}`)
  }
  return lines.join('\n')
}

/** Code as a fenced block whose fence is longer than any run of backticks in it, so the code cannot close it. */
export function fencedCode(code: string, language: string): string {
  const longestRun = Array.from(code.matchAll(/`+/g), (m) => m[0].length).reduce((most, n) => Math.max(most, n), 0)
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return `${fence}${language}\n${code}\n${fence}`
}

/**
 * Rows of cells as a markdown table, the first row its header, every row as wide as the widest.
 * Cells are written as given: a caller escapes `|` and joins a cell's lines first.
 */
export function markdownTable(rows: readonly string[][]): string {
  const width = Math.max(1, ...rows.map((r) => r.length))
  const line = (cells: readonly string[]): string => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`
  return [line(rows[0] ?? []), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n')
}
