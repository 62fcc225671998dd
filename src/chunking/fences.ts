/**
 * Finds fenced code blocks (``` and ~~~) in markdown.
 *
 * Follows CommonMark where it matters: a fence opens with three or more backticks or
 * tildes, closes with a run of the same character at least as long, and an unclosed fence
 * runs to the end of the text. Fences are recognised at any indentation (notes put them in
 * list items); the opener's indentation is removed from the body lines.
 */
import { languageForFenceTag, type CodeLanguage } from './languages.js'

export interface Fence {
  /** The full info string after the opening run, trimmed. */
  info: string
  language: CodeLanguage | null
  body: string
  /** 0-based line of the opening fence within the text it came from. */
  openLine: number
  /** 0-based line of the closing fence; the number of lines when the fence is never closed. */
  closeLine: number
}

// The run is taken whole: trying each shorter reading of it made a long run before a carriage
// return in the line cost its square.
const OPEN = /^([ \t]*)(`{3,}(?!`)|~{3,}(?!~))(.*)$/
const CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/

export function extractFences(text: string): Fence[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  const fences: Fence[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]!)
    if (open === null) continue
    const indent = open[1]!.length
    const run = open[2]!
    const info = open[3]!.trim()
    // A backtick fence's info string may not contain backticks (that is inline code).
    if (run[0] === '`' && info.includes('`')) continue
    const close = findClose(lines, i + 1, run)
    const body = lines
      .slice(i + 1, close)
      .map((l) => dedent(l, indent))
      .join('\n')
    fences.push({ info, language: info === '' ? null : languageForFenceTag(info), body, openLine: i, closeLine: close })
    i = close
  }
  return fences
}

function findClose(lines: readonly string[], from: number, run: string): number {
  for (let j = from; j < lines.length; j++) {
    const close = CLOSE.exec(lines[j]!)
    if (close !== null && close[1]![0] === run[0] && close[1]!.length >= run.length) return j
  }
  return lines.length
}

function dedent(line: string, indent: number): string {
  let n = 0
  while (n < indent && n < line.length && (line[n] === ' ' || line[n] === '\t')) n++
  return line.slice(n)
}

/** For each line, whether it is part of a fence (delimiters included). */
export function fenceMask(lines: readonly string[]): Uint8Array {
  const mask = new Uint8Array(lines.length)
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]!)
    if (open === null || (open[2]![0] === '`' && open[3]!.includes('`'))) continue
    const close = Math.min(findClose(lines, i + 1, open[2]!), lines.length - 1)
    mask.fill(1, i, close + 1)
    i = close
  }
  return mask
}
