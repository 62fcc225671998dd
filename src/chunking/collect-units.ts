/**
 * Walks a syntax tree and cuts the file into units at syntax boundaries.
 *
 * Definitions (with the comments and attributes just above them) become units; the code
 * between definitions becomes gap units, so every non-blank line lands in exactly one unit.
 * A unit over the budget is split: a definition by descending into its members (class →
 * methods), a run of statements by packing whole statements, and a leaf by lines.
 */
import type { Node } from 'web-tree-sitter'
import { regionOf, type EmbeddedRegions } from './embedded.js'
import type { LineIndex } from './line-index.js'
import { splitLines } from './merge-split.js'
import type { ClassifyContext, DefMatch, LanguageRules } from './rules/index.js'
import { innerScope, prefixDocText, symbolFor, type Scope } from './symbol-extraction.js'
import { firstLine, lastLine } from './syntax.js'
import type { Sym, Unit } from './units.js'

export interface WalkContext {
  readonly rules: LanguageRules
  readonly lines: LineIndex
  readonly budgetTokens: number
  readonly out: Unit[]
  /** Parsed script and style bodies of markup files. */
  readonly embedded?: EmbeddedRegions
}

/** Where gaps of the current range belong: the enclosing symbol, as pieces of it. */
interface GapOwner {
  sym: Sym | null
  piece: boolean
}

interface FoundDef {
  start: number
  end: number
  match: DefMatch
  prefixes: Node[]
  /** Siblings that complete the definition (Dart's function_body). */
  continuation: Node[]
  /** Index range of the siblings the definition spans. */
  firstIndex: number
  lastIndex: number
}

/** Deep enough for any real nesting; beyond it, ranges are split by lines. */
const MAX_DEPTH = 64

/** Expands transparent wrappers (a JSON root object, a header guard) into their children. */
export function topLevelNodes(root: Node, rules: LanguageRules): Node[] {
  const out: Node[] = []
  const visit = (nodes: Node[]): void => {
    for (const node of nodes) {
      if (rules.transparent.has(node.type)) visit(node.namedChildren)
      else out.push(node)
    }
  }
  visit(root.namedChildren)
  return out
}

function findDefs(ctx: WalkContext, siblings: Node[], scope: Scope): FoundDef[] {
  const { rules } = ctx
  const classifyCtx: ClassifyContext = { moduleLevel: scope.moduleLevel }
  const defs: FoundDef[] = []
  let claimed = -1 // siblings up to this index already belong to a definition
  for (let i = 0; i < siblings.length; i++) {
    const node = siblings[i]!
    if (i <= claimed) continue
    const match = rules.classify(node, classifyCtx)
    if (match === null) continue
    let first = i
    while (first - 1 > claimed && isAttachedPrefix(siblings, first - 1, rules)) first--
    let last = i
    while (last + 1 < siblings.length && rules.continuation.has(siblings[last + 1]!.type)) last++
    claimed = last
    defs.push({
      start: firstLine(siblings[first]!),
      end: lastLine(siblings[last]!),
      match,
      prefixes: siblings.slice(first, i),
      continuation: siblings.slice(i + 1, last + 1),
      firstIndex: first,
      lastIndex: last,
    })
  }
  return defs
}

/**
 * A prefix attaches to the next sibling when it touches it (no blank line between) and
 * does not trail code on its own first line (`x = 1 // note` documents x, not what follows).
 */
function isAttachedPrefix(siblings: Node[], index: number, rules: LanguageRules): boolean {
  const node = siblings[index]!
  if (!rules.isPrefix(node)) return false
  if (firstLine(siblings[index + 1]!) - lastLine(node) > 1) return false
  const before = siblings[index - 1]
  return before === undefined || lastLine(before) < firstLine(node)
}

/** Cuts lines start..end, covered by the given sibling nodes, into units. */
export function walkRange(ctx: WalkContext, siblings: Node[], start: number, end: number, scope: Scope, owner: GapOwner, depth: number): void {
  let cursor = start
  let nextSibling = 0
  for (const def of findDefs(ctx, siblings, scope)) {
    const s = Math.max(def.start, cursor)
    const e = Math.min(def.end, end)
    // A definition sharing its lines with the previous one stays with it.
    if (s > e) continue
    const between = siblings.slice(nextSibling, def.firstIndex)
    nextSibling = def.lastIndex + 1
    if (s > cursor) emitGap(ctx, between, cursor, s - 1, scope, owner, depth)
    const sym = symbolFor(def.match, scope, ctx.rules, prefixDocText(def.prefixes, ctx.rules))
    emitDef(ctx, def, sym, s, e, scope, depth)
    cursor = e + 1
  }
  if (cursor <= end) emitGap(ctx, siblings.slice(nextSibling), cursor, end, scope, owner, depth)
}

function emitDef(ctx: WalkContext, def: FoundDef, sym: Sym, start: number, end: number, scope: Scope, depth: number): void {
  if (ctx.lines.tokens(start, end) <= ctx.budgetTokens) {
    ctx.out.push({ start, end, sym, piece: false })
    return
  }
  const region = regionOf(ctx.embedded, def.match.body)
  if (region !== null) {
    // Script functions are named as in a script file, not as members of <script>.
    walkRange({ ...ctx, rules: region.rules }, region.nodes, start, end, scope, { sym, piece: true }, depth + 1)
    return
  }
  const children = [...def.match.body.namedChildren, ...def.continuation]
  if (depth >= MAX_DEPTH || children.length === 0) {
    splitLines(ctx.lines, start, end, ctx.budgetTokens, sym, ctx.out)
    return
  }
  const inner = innerScope(sym, scope)
  walkRange(ctx, expandBodies(ctx, children, start, end, inner), start, end, inner, { sym, piece: true }, depth + 1)
}

/**
 * Replaces a child that holds most of the range's lines (a class body, a block, a do-block)
 * by its children, repeatedly, so that a split happens between members and statements
 * rather than around the one body node. Definitions are kept whole.
 */
function expandBodies(ctx: WalkContext, nodes: Node[], start: number, end: number, scope: Scope): Node[] {
  const half = (end - start + 1) / 2
  const classifyCtx: ClassifyContext = { moduleLevel: scope.moduleLevel }
  const out: Node[] = []
  const visit = (list: Node[]): void => {
    for (const node of list) {
      const big = lastLine(node) - firstLine(node) + 1 >= half
      if (big && node.namedChildCount > 0 && ctx.rules.classify(node, classifyCtx) === null) visit(node.namedChildren)
      else out.push(node)
    }
  }
  visit(nodes)
  return out
}

function emitGap(ctx: WalkContext, nodes: Node[], start: number, end: number, scope: Scope, owner: GapOwner, depth: number): void {
  const range = ctx.lines.trim(start, end)
  if (range === null) return
  const [s, e] = range
  if (ctx.lines.tokens(s, e) <= ctx.budgetTokens) {
    ctx.out.push({ start: s, end: e, sym: owner.sym, piece: owner.piece })
    return
  }
  // Too big: from here on everything is a piece of something larger.
  const pieceOwner: GapOwner = { sym: owner.sym, piece: true }
  if (depth >= MAX_DEPTH || nodes.length === 0) {
    splitLines(ctx.lines, s, e, ctx.budgetTokens, owner.sym, ctx.out)
  } else if (nodes.length === 1) {
    walkRange(ctx, expandBodies(ctx, nodes[0]!.namedChildren, s, e, scope), s, e, scope, pieceOwner, depth + 1)
  } else {
    packStatements(ctx, nodes, s, e, scope, pieceOwner, depth)
  }
}

/**
 * Groups consecutive statements into pieces within the budget, cutting only between
 * statements; a statement that alone exceeds the budget is descended into.
 */
function packStatements(ctx: WalkContext, nodes: Node[], start: number, end: number, scope: Scope, owner: GapOwner, depth: number): void {
  let groupStart = start
  let groupEnd = start - 1
  const flush = (): void => {
    if (groupEnd >= groupStart) emitGap(ctx, [], groupStart, groupEnd, scope, owner, depth)
  }
  let cursor = start
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!
    const s = cursor
    const e = i === nodes.length - 1 ? end : Math.min(Math.max(lastLine(node), s - 1), end)
    if (e < s) continue
    cursor = e + 1
    if (ctx.lines.tokens(s, e) > ctx.budgetTokens) {
      flush()
      groupStart = e + 1
      groupEnd = e
      walkRange(ctx, expandBodies(ctx, node.namedChildren, s, e, scope), s, e, scope, owner, depth + 1)
    } else if (groupEnd >= groupStart && ctx.lines.tokens(groupStart, e) > ctx.budgetTokens) {
      flush()
      groupStart = s
      groupEnd = e
    } else {
      groupEnd = e
    }
  }
  flush()
}
