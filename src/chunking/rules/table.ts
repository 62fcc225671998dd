/**
 * Builds LanguageRules from a compact table: node type → symbol type or custom classifier.
 */
import type { Node } from 'web-tree-sitter'
import { defaultName, isComment } from '../syntax.js'
import type { ClassifyContext, Classifier, DefMatch, LanguageRules } from './types.js'

interface RuleTable {
  defs: Readonly<Record<string, string | Classifier>>
  /** Non-comment node types that attach to the following definition. */
  prefix?: readonly string[]
  /** Predicate form of `prefix` for nodes a type alone cannot tell apart (Elixir `@doc`). */
  prefixWhen?: (node: Node) => boolean
  /** Symbol types whose nested functions are methods; defaults to class-like types. */
  methodContainers?: readonly string[]
  transparent?: readonly string[]
  continuation?: readonly string[]
  /** Doc text inside a definition, consulted before preceding comments. */
  innerDoc?: (match: DefMatch) => string | null
  /** Doc text contributed by a non-comment prefix node. */
  prefixDoc?: (node: Node) => string | null
}

const CLASS_LIKE = ['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'extension']

export function simpleDef(node: Node, type: string): DefMatch {
  return { name: defaultName(node), type, body: node }
}

export function tableRules(table: RuleTable): LanguageRules {
  const prefix = new Set(table.prefix ?? [])
  const classify = (node: Node, ctx: ClassifyContext): DefMatch | null => {
    const rule = table.defs[node.type]
    if (rule === undefined) return null
    const match = typeof rule === 'string' ? simpleDef(node, rule) : rule(node, ctx)
    if (match !== null && table.innerDoc !== undefined && match.doc === undefined) {
      match.doc = table.innerDoc(match)
    }
    return match
  }
  return {
    classify,
    isPrefix: (node) => isComment(node) || prefix.has(node.type) || (table.prefixWhen?.(node) ?? false),
    prefixDoc: (node) => (isComment(node) ? node.text : (table.prefixDoc?.(node) ?? null)),
    transparent: new Set(table.transparent ?? []),
    continuation: new Set(table.continuation ?? []),
    methodContainers: new Set(table.methodContainers ?? CLASS_LIKE),
  }
}

/** Classifies a wrapper by the first child that is itself a definition. */
export function unwrap(types: readonly string[], classifyInner: Classifier): Classifier {
  return (node, ctx) => {
    for (const child of node.namedChildren) {
      if (!types.includes(child.type)) continue
      const inner = classifyInner(child, ctx)
      if (inner !== null) return inner
    }
    return null
  }
}
