/**
 * Recursive chunking for files without a usable syntax tree (unknown language, parse
 * failure, oversized input): paragraphs (runs of non-blank lines) are packed up to the
 * budget; a paragraph over the budget is split by lines, and a line over it by characters.
 */
import type { LineIndex } from './line-index.js'
import { splitLines } from './merge-split.js'
import { MODULE_SYMBOL_TYPE, type Sym, type Unit } from './units.js'

export function fallbackUnits(lines: LineIndex, budgetTokens: number): Unit[] {
  const sym: Sym = { name: null, type: MODULE_SYMBOL_TYPE, parentPath: [], doc: null }
  const out: Unit[] = []
  let packStart = -1
  let packEnd = -1
  const flush = (): void => {
    if (packStart >= 0) out.push({ start: packStart, end: packEnd, sym, piece: true })
    packStart = -1
  }
  for (const [s, e] of paragraphs(lines)) {
    if (lines.tokens(s, e) > budgetTokens) {
      flush()
      splitLines(lines, s, e, budgetTokens, sym, out)
    } else if (packStart >= 0 && lines.tokens(packStart, e) <= budgetTokens) {
      packEnd = e
    } else {
      flush()
      packStart = s
      packEnd = e
    }
  }
  flush()
  return out
}

function paragraphs(lines: LineIndex): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let start = -1
  for (let i = 0; i < lines.count; i++) {
    if (lines.isBlank(i)) {
      if (start >= 0) out.push([start, i - 1])
      start = -1
    } else if (start < 0) {
      start = i
    }
  }
  if (start >= 0) out.push([start, lines.count - 1])
  return out
}
