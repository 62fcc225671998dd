/**
 * Turns a rule's DefMatch into a symbol: scope chain, method detection, doc comment.
 */
import type { Node } from 'web-tree-sitter'
import type { DefMatch, LanguageRules } from './rules/index.js'
import type { Sym } from './units.js'

export interface Scope {
  /** Names of the enclosing named symbols. */
  path: string[]
  /** The enclosing symbol, whose pieces the gaps of this scope belong to. */
  container: Sym | null
  moduleLevel: boolean
}

export const ROOT_SCOPE: Scope = { path: [], container: null, moduleLevel: true }

export function symbolFor(match: DefMatch, scope: Scope, rules: LanguageRules, prefixDoc: string | null): Sym {
  const parentPath = match.owner === undefined ? scope.path : [...scope.path, ...match.owner]
  let type = match.type
  if (type === 'function' && scope.container !== null && rules.methodContainers.has(scope.container.type)) {
    type = 'method'
  }
  const doc = tidyDoc(match.doc ?? null) ?? prefixDoc
  return { name: match.name, type, parentPath, doc }
}

/** The scope inside a definition that is being split into its members. */
export function innerScope(sym: Sym, scope: Scope): Scope {
  const path = sym.name === null ? sym.parentPath : [...sym.parentPath, sym.name]
  return { path, container: sym, moduleLevel: sym.type === 'module' }
}

/** Joins the cleaned doc text of a definition's prefix nodes (comments, `@doc` attributes). */
export function prefixDocText(prefixes: readonly Node[], rules: LanguageRules): string | null {
  const parts: string[] = []
  for (const node of prefixes) {
    // Line comments carry their newline; trim so that parts join without blank lines.
    const text = cleanComment(rules.prefixDoc(node))?.trimEnd()
    if (text !== undefined && text.trim() !== '') parts.push(text)
  }
  return tidyDoc(parts.length === 0 ? null : parts.join('\n'))
}

const MAX_DOC_CHARS = 2000

/** Strips comment markers: /** * // /// # -- (* *) {-| -} <!-- -->. */
function cleanComment(raw: string | null): string | null {
  if (raw === null) return null
  return raw
    .replace(/^\s*(\/\*\*?!?|\(\*\*?|\{-\|?|<!--)/, '')
    .replace(/(\*\/|\*\)|-\}|-->)\s*$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*(\/\/[/!]?|#+!?|--+|;+|\*(?!\*))\s?/, ''))
    .join('\n')
}

/**
 * Trims line ends and surrounding blank lines and removes the indentation the lines after
 * the first share (docstrings are indented like their code); bounds the length; empty
 * becomes null.
 */
function tidyDoc(raw: string | null): string | null {
  if (raw === null) return null
  const lines = raw.split('\n').map((line) => line.trimEnd())
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift()
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop()
  const indents = lines
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => /^[ \t]*/.exec(l)![0].length)
  const common = indents.length === 0 ? 0 : Math.min(...indents)
  const text = lines
    .map((l, i) => (i === 0 ? l.trimStart() : l.slice(common)))
    .join('\n')
    .trim()
  if (text === '') return null
  return text.length > MAX_DOC_CHARS ? text.slice(0, MAX_DOC_CHARS) : text
}
