/**
 * Turns a page's call sites into edges: each call leaves the chunk whose lines contain it (and
 * the innermost definition there), and points at a definition of the same page when that page
 * defines the callee unambiguously, otherwise at the callee's qualified name.
 *
 * Only same-page targets become chunk edges. A chunk of another page may be rewritten in place
 * by that page's re-import (chunk ids follow chunk positions), so an edge into it could end up
 * pointing at a different function; a name stays true. Readers union both kinds.
 */
import type { ChunkDraft } from '../../chunking/index.js'
import { SELF_RECEIVERS } from './extract.js'
import { chunkAt, symbolAt, type PageSymbol } from './symbols.js'
import type { CallEdgeType, CallSite } from './types.js'

export interface PageEdge {
  fromIndex: number
  /** Qualified name of the innermost definition the call sits in; null for top-level code. */
  fromSymbol: string | null
  /** The defining chunk on the same page, or null for a by-name edge. */
  toIndex: number | null
  /** Qualified name of the callee as far as it is known: `Queue.submit`, `submit`. */
  target: string
  /** Last segment of the target. */
  name: string
  edgeType: CallEdgeType
}

const CLASS_TYPES = new Set(['class', 'struct', 'impl', 'trait', 'interface', 'module', 'contract'])

/** The class a call sits in, for resolving `this.x()` and `self.x()`. */
function enclosingClass(symbols: readonly PageSymbol[], inner: PageSymbol | null, line: number): string | null {
  if (inner !== null && CLASS_TYPES.has(inner.symbolType)) return inner.qualified
  if (inner !== null && inner.qualified.includes('.')) return inner.qualified.slice(0, inner.qualified.lastIndexOf('.'))
  const outer = symbols.filter((s) => CLASS_TYPES.has(s.symbolType) && s.startLine <= line && s.endLine >= line)
  return outer.length > 0 ? outer[outer.length - 1]!.qualified : null
}

interface Definitions {
  byQualified: Map<string, PageSymbol[]>
  byName: Map<string, PageSymbol[]>
}

function indexDefinitions(symbols: readonly PageSymbol[]): Definitions {
  const byQualified = new Map<string, PageSymbol[]>()
  const byName = new Map<string, PageSymbol[]>()
  for (const s of symbols) {
    if (s.symbolType === 'variable') continue
    byName.set(s.name, [...(byName.get(s.name) ?? []), s])
    byQualified.set(s.qualified, [...(byQualified.get(s.qualified) ?? []), s])
  }
  return { byQualified, byName }
}

function resolveLocal(defs: Definitions, target: string, name: string, qualified: boolean, ownClass: string | null): PageSymbol | null {
  if (qualified) {
    const exact = defs.byQualified.get(target)
    return exact !== undefined && exact.length === 1 ? exact[0]! : null
  }
  const candidates = defs.byName.get(name) ?? []
  // A bare call means a free function, or a method of the caller's own class (Java, C#, Ruby).
  const free = candidates.filter((c) => !c.qualified.includes('.'))
  if (free.length === 1) return free[0]!
  const sibling = candidates.filter((c) => ownClass !== null && c.qualified === `${ownClass}.${name}`)
  return free.length === 0 && sibling.length === 1 ? sibling[0]! : null
}

export function planPageEdges(drafts: readonly ChunkDraft[], symbols: readonly PageSymbol[], sites: readonly CallSite[]): PageEdge[] {
  if (sites.length === 0) return []
  const defs = indexDefinitions(symbols)
  const seen = new Set<string>()
  const edges: PageEdge[] = []
  for (const site of sites) {
    const from = chunkAt(drafts, site.line)
    if (from === null) continue
    const inner = symbolAt(symbols, site.line)
    const ownClass = enclosingClass(symbols, inner, site.line)
    let qualifier = site.qualifier
    if (qualifier !== null && SELF_RECEIVERS.has(qualifier)) qualifier = ownClass
    const target = qualifier === null ? site.name : `${qualifier}.${site.name}`
    const fromSymbol = inner?.qualified ?? null
    const key = `${from.chunkIndex}\u0000${fromSymbol}\u0000${target}\u0000${site.kind}`
    if (seen.has(key)) continue
    seen.add(key)
    const to = site.kind === 'calls' ? resolveLocal(defs, target, site.name, qualifier !== null, ownClass) : null
    edges.push({ fromIndex: from.chunkIndex, fromSymbol, toIndex: to?.chunkIndex ?? null, target: to?.qualified ?? target, name: site.name, edgeType: site.kind })
  }
  return edges
}
