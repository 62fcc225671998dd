/**
 * Finds call sites in a parse tree: one pass over every node with a tree cursor, reading the
 * callee of each call node the language's rules name.
 */
import type { Node } from 'web-tree-sitter'
import type { CodeLanguage } from '../../chunking/index.js'
import { CALL_RULES, type CallRules } from './rules.js'
import type { CallSite } from './types.js'

/** A callee reduced to its last name and the plain name it was called on. */
interface Callee {
  name: string
  qualifier: string | null
}

/** Wrapper nodes that stand for their only meaningful child. */
const WRAPPERS = new Set(['expression', 'parenthesized_expression', 'command_name', 'call_suffix', 'navigation_suffix', 'generic_type'])
/** Nodes that name a generic instantiation: the callee is their `name`/`function` part. */
const GENERIC = new Set(['template_function', 'generic_name', 'generic_function', 'template_type', 'instantiation_expression'])
/** Receivers that mean "the enclosing class". */
export const SELF_RECEIVERS = new Set(['this', 'self', 'Self', '$this', 'base', 'super'])

const MAX_NAME = 200
const NAME_PATTERN = /^[$@]?[\p{L}_][\p{L}\p{N}_$!?]*$/u

function plainName(text: string): string | null {
  const name = text.replace(/^\$/, '')
  if (text === '$this') return '$this'
  return name.length <= MAX_NAME && NAME_PATTERN.test(name) ? name : null
}

/** The last name of an expression and the plain name before it (`a.b.c` → c on b). */
function describe(node: Node | null, depth = 0): Callee | null {
  if (node === null || depth > 8) return null
  if (node.namedChildCount === 0) {
    const name = plainName(node.text)
    return name === null ? null : { name, qualifier: null }
  }
  if (WRAPPERS.has(node.type) || node.type === 'variable_name') return describe(node.namedChildren[node.namedChildCount - 1] ?? null, depth + 1)
  if (GENERIC.has(node.type)) return describe(node.childForFieldName('name') ?? node.childForFieldName('function') ?? node.namedChild(0), depth + 1)
  // Member access, scoped names, navigation: the last child is the name, the first the receiver.
  if (node.namedChildCount >= 2) {
    const last = node.namedChildren[node.namedChildCount - 1]!
    const named = describe(last.type === 'arguments' ? null : last, depth + 1)
    if (named === null || named.qualifier !== null) return null
    const receiver = node.namedChild(0)
    const receiverName = receiver === null ? null : describe(receiver, depth + 1)
    const isPlainReceiver = receiver !== null && (receiver.namedChildCount === 0 || receiver.type === 'variable_name' || isMemberLike(receiver))
    return { name: named.name, qualifier: isPlainReceiver ? (receiverName?.name ?? null) : null }
  }
  return null
}

function isMemberLike(node: Node): boolean {
  return /member|attribute|selector|field|scoped|qualified|navigation|index|dot/.test(node.type)
}

function calleeOfCall(node: Node, rules: CallRules): Callee | null {
  if (rules.memberCalls.has(node.type)) {
    const nameNode = node.childForFieldName('name') ?? node.childForFieldName('method')
    if (nameNode === null) return null
    const name = describe(nameNode)
    if (name === null) return null
    const receiver = node.childForFieldName('object') ?? node.childForFieldName('receiver') ?? node.childForFieldName('scope')
    return { name: name.name, qualifier: receiver === null ? null : (describe(receiver)?.name ?? null) }
  }
  if (rules.constructs.has(node.type)) {
    const type = node.childForFieldName('constructor') ?? node.childForFieldName('type') ?? node.childForFieldName('name') ?? node.namedChild(0)
    return describe(type)
  }
  return describe(node.childForFieldName('function') ?? node.childForFieldName('name') ?? node.namedChild(0))
}

function importedNames(node: Node): string[] {
  if (node.type === 'import_specifier') {
    const name = node.childForFieldName('name') ?? node.namedChild(0)
    return name === null ? [] : [name.text]
  }
  // Python `from m import a, b as c`: every `name` field is one imported name.
  const names: string[] = []
  for (const child of node.childrenForFieldName('name')) {
    if (child === null) continue
    const target = child.type === 'aliased_import' ? child.childForFieldName('name') : child
    const last = target?.text.split('.').pop()
    if (last) names.push(last)
  }
  return names
}

/** Ruby's `Foo.new` constructs Foo; record it as a call of the class. */
function normalise(callee: Callee, language: CodeLanguage): Callee {
  if (language === 'ruby' && callee.name === 'new' && callee.qualifier !== null) return { name: callee.qualifier, qualifier: null }
  return callee
}

/** Every call site and name-binding import in a parsed file, in source order. */
export function extractCallSites(root: Node, language: CodeLanguage): CallSite[] {
  const rules = CALL_RULES[language]
  if (rules === undefined) return []
  const out: CallSite[] = []
  const cursor = root.walk()
  try {
    let descending = true
    for (;;) {
      if (descending) {
        const type = cursor.nodeType
        // Materialising a Node is the expensive part of a walk: only for call and import nodes.
        if (interesting(rules, type) && cursor.nodeIsNamed) visit(cursor.currentNode, type, rules, language, out)
        if (cursor.gotoFirstChild()) continue
      }
      if (cursor.gotoNextSibling()) {
        descending = true
        continue
      }
      if (!cursor.gotoParent()) break
      descending = false
    }
  } finally {
    cursor.delete()
  }
  return out
}

function interesting(rules: CallRules, type: string): boolean {
  return rules.calls.has(type) || rules.memberCalls.has(type) || rules.constructs.has(type) || rules.imports.has(type)
}

function visit(node: Node, type: string, rules: CallRules, language: CodeLanguage, out: CallSite[]): void {
  const line = node.startPosition.row + 1
  if (rules.imports.has(type)) {
    for (const name of importedNames(node)) out.push({ line, name, qualifier: null, kind: 'imports' })
    return
  }
  if (!rules.calls.has(type) && !rules.memberCalls.has(type) && !rules.constructs.has(type)) return
  const found = calleeOfCall(node, rules)
  if (found === null) return
  const callee = normalise(found, language)
  if (rules.ignore.has(callee.name) && callee.qualifier === null) return
  out.push({ line, name: callee.name, qualifier: callee.qualifier, kind: 'calls' })
}
