/**
 * A file split into lines with prefix sums, so that the size of any line range is O(1).
 * Chunk sizes are measured on line ranges over and over while splitting and merging;
 * slicing strings for that would make chunking quadratic on large files.
 */
import { charsToTokens } from './tokens.js'

export class LineIndex {
  readonly lines: readonly string[]
  /** prefix[i] = characters (newlines included) before line i. */
  private readonly prefix: Float64Array
  private readonly blank: Uint8Array

  constructor(content: string) {
    const lines = content.split('\n')
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!
      if (line.endsWith('\r')) lines[i] = line.slice(0, -1)
    }
    // A trailing newline does not open another line.
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
    this.lines = lines
    this.prefix = new Float64Array(lines.length + 1)
    this.blank = new Uint8Array(lines.length)
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!
      this.prefix[i + 1] = this.prefix[i]! + line.length + 1
      this.blank[i] = line.trim() === '' ? 1 : 0
    }
  }

  get count(): number {
    return this.lines.length
  }

  /** Characters in lines start..end (0-based, inclusive), joined by newlines. */
  chars(start: number, end: number): number {
    if (end < start) return 0
    return this.prefix[end + 1]! - this.prefix[start]! - 1
  }

  tokens(start: number, end: number): number {
    return charsToTokens(this.chars(start, end))
  }

  isBlank(line: number): boolean {
    return this.blank[line] === 1
  }

  text(start: number, end: number): string {
    return this.lines.slice(start, end + 1).join('\n')
  }

  /** Narrows a range to its first and last non-blank lines; null when all blank. */
  trim(start: number, end: number): [number, number] | null {
    let s = start
    let e = end
    while (s <= e && this.isBlank(s)) s++
    while (e >= s && this.isBlank(e)) e--
    return s > e ? null : [s, e]
  }

  /** Leading whitespace width of a line (tabs count as one). */
  indent(line: number): number {
    const text = this.lines[line] ?? ''
    const m = /^[ \t]*/.exec(text)
    return m === null ? 0 : m[0].length
  }
}
