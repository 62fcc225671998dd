/**
 * Size policies over units: splitting ranges by lines, folding trivial closers into the
 * unit before them, re-joining pieces of one symbol, and merging small siblings.
 */
import type { LineIndex } from './line-index.js'
import { tokensToChars } from './tokens.js'
import { MERGED_SYMBOL_TYPE, type Sym, type Unit } from './units.js'

/** Adjacent units under this share of the budget are merged (spec: 15%). */
const SMALL_SIBLING_RATIO = 0.15

/**
 * Splits lines start..end into pieces within the budget. Cuts prefer, within the back
 * half of a piece, a blank line, else the least-indented line (a statement boundary at
 * the outermost level in view). A single line longer than the budget is cut into fragments.
 */
export function splitLines(lines: LineIndex, start: number, end: number, budgetTokens: number, sym: Sym | null, out: Unit[]): void {
  const budgetChars = tokensToChars(budgetTokens)
  let i = start
  while (i <= end) {
    if (lines.isBlank(i)) {
      i++
      continue
    }
    if (lines.chars(i, i) > budgetChars) {
      pushFragments(lines.lines[i]!, i, budgetChars, sym, out)
      i++
      continue
    }
    let j = i
    while (j < end && lines.chars(i, j + 1) <= budgetChars) j++
    const cut = j < end ? bestCut(lines, i, j) : j
    const range = lines.trim(i, cut)
    if (range !== null) out.push({ start: range[0], end: range[1], sym, piece: true })
    i = cut + 1
  }
}

/** The last line of a piece i..j such that the next piece starts at a good boundary. */
function bestCut(lines: LineIndex, i: number, j: number): number {
  const floor = i + Math.floor((j - i) / 2)
  let best = j
  let bestIndent = Number.POSITIVE_INFINITY
  for (let next = j + 1; next > floor + 1; next--) {
    if (lines.isBlank(next) || lines.isBlank(next - 1)) return next - 1
    const indent = lines.indent(next)
    if (indent < bestIndent) {
      bestIndent = indent
      best = next - 1
    }
  }
  return best
}

function pushFragments(line: string, index: number, budgetChars: number, sym: Sym | null, out: Unit[]): void {
  for (let at = 0; at < line.length; at += budgetChars) {
    const fragment = line.slice(at, at + budgetChars)
    if (fragment.trim() !== '') out.push({ start: index, end: index, sym, piece: true, fragment })
  }
}

/** Closing tokens only: `}`, `});`, `end`, `</div></body>`, `fi`, `done`. */
const CLOSERS = /^(?:[\])};,]|end|fi|done|esac|<\/[\w:.-]+>)+$/
const MAX_TRIVIAL_CHARS = 40

/** A piece left holding nothing but the closing tokens of the node it was split from. */
function isTrivial(lines: LineIndex, unit: Unit): boolean {
  if (!unit.piece || unit.fragment !== undefined || lines.chars(unit.start, unit.end) > MAX_TRIVIAL_CHARS * 2) return false
  const compact = lines.text(unit.start, unit.end).replace(/\s+/g, '')
  return compact.length <= MAX_TRIVIAL_CHARS && CLOSERS.test(compact)
}

/**
 * A closing brace or `end` left alone by a split joins the unit before it, or the one
 * after it when the one before has no room left in the budget.
 */
export function foldTrivial(lines: LineIndex, units: Unit[], budgetTokens: number): Unit[] {
  const out: Unit[] = []
  let pending: Unit | null = null // a trivial unit waiting to join the next one
  for (const unit of units) {
    const next = { ...unit }
    if (pending !== null && next.fragment === undefined && lines.tokens(pending.start, next.end) <= budgetTokens) {
      next.start = pending.start
      pending = null
    } else if (pending !== null) {
      out.push(pending)
      pending = null
    }
    const prev = out[out.length - 1]
    if (!isTrivial(lines, next)) {
      out.push(next)
    } else if (prev !== undefined && prev.fragment === undefined && lines.tokens(prev.start, next.end) <= budgetTokens) {
      prev.end = next.end
    } else {
      pending = next
    }
  }
  if (pending !== null) out.push(pending)
  return out
}

/** Adjacent pieces of the same symbol (a class head and its fields) rejoin within the budget. */
export function coalescePieces(lines: LineIndex, units: Unit[], budgetTokens: number): Unit[] {
  const out: Unit[] = []
  for (const unit of units) {
    const prev = out[out.length - 1]
    if (prev !== undefined && prev.piece && unit.piece && prev.sym === unit.sym && prev.fragment === undefined && unit.fragment === undefined && lines.tokens(prev.start, unit.end) <= budgetTokens) {
      prev.end = unit.end
    } else {
      out.push({ ...unit })
    }
  }
  return out
}

/**
 * Runs of adjacent whole units each under 15% of the budget merge into one unit, up to
 * the budget. Pieces of larger nodes never merge; a run of one stays as it was.
 */
export function mergeSmallSiblings(lines: LineIndex, units: Unit[], budgetTokens: number): Unit[] {
  const threshold = budgetTokens * SMALL_SIBLING_RATIO
  const out: Unit[] = []
  let run: Unit[] = []
  const flush = (): void => {
    if (run.length === 1) out.push(run[0]!)
    else if (run.length > 1) out.push(mergedUnit(run))
    run = []
  }
  for (const unit of units) {
    const small = !unit.piece && unit.fragment === undefined && lines.tokens(unit.start, unit.end) < threshold
    if (!small) {
      flush()
      out.push(unit)
      continue
    }
    if (run.length > 0 && lines.tokens(run[0]!.start, unit.end) > budgetTokens) flush()
    run.push(unit)
  }
  flush()
  return out
}

function mergedUnit(run: Unit[]): Unit {
  const paths = run.map((u) => u.sym?.parentPath ?? [])
  const common: string[] = []
  for (let i = 0; paths.every((p) => i < p.length && p[i] === paths[0]![i]); i++) common.push(paths[0]![i]!)
  return {
    start: run[0]!.start,
    end: run[run.length - 1]!.end,
    sym: { name: null, type: MERGED_SYMBOL_TYPE, parentPath: common, doc: null },
    piece: false,
    merged: run.length,
  }
}
