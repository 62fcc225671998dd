/**
 * TypeScript, TSX and JavaScript: one table, since the grammars share node types.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, defaultName, unquote } from '../syntax.js'
import { simpleDef, tableRules } from './table.js'
import type { ClassifyContext, DefMatch, LanguageRules } from './types.js'

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function'])
const CLASS_VALUES = new Set(['class', 'class_expression'])

/** `const f = () => {}` is a function named f; other module-level bindings are variables. */
function variableDef(node: Node, ctx: ClassifyContext): DefMatch | null {
  const declarators = node.namedChildren.filter((c) => c.type === 'variable_declarator')
  if (declarators.length !== 1) return null
  const declarator = declarators[0]!
  const nameNode = declarator.childForFieldName('name')
  if (nameNode === null || nameNode.type !== 'identifier') return null
  const value = declarator.childForFieldName('value')
  const name = cleanName(nameNode.text)
  if (value !== null && FUNCTION_VALUES.has(value.type)) return { name, type: 'function', body: value }
  if (value !== null && CLASS_VALUES.has(value.type)) return { name, type: 'class', body: value }
  if (!ctx.moduleLevel) return null
  return { name, type: 'variable', body: value ?? node }
}

function moduleDef(node: Node): DefMatch {
  const nameNode = node.childForFieldName('name')
  return { name: nameNode === null ? null : cleanName(unquote(nameNode.text)), type: 'module', body: node }
}

function classify(node: Node, ctx: ClassifyContext): DefMatch | null {
  const type = DEFS[node.type]
  if (type !== undefined) return simpleDef(node, type)
  switch (node.type) {
    case 'lexical_declaration':
    case 'variable_declaration':
      return variableDef(node, ctx)
    case 'internal_module':
    case 'module':
      return moduleDef(node)
    case 'export_statement':
      return exportDef(node, ctx)
    case 'ambient_declaration':
    case 'expression_statement': {
      const inner = node.namedChildren[0]
      if (inner === undefined) return null
      if (node.type === 'expression_statement' && inner.type !== 'internal_module') return null
      return classify(inner, ctx)
    }
    default:
      return null
  }
}

/**
 * `export function f` is the function f; `export default <anonymous>` is named `default`;
 * re-exports and `export default expr` are unnamed `export statement`s.
 */
function exportDef(node: Node, ctx: ClassifyContext): DefMatch | null {
  const declaration = node.childForFieldName('declaration')
  if (declaration !== null) return classify(declaration, ctx)
  for (const child of node.namedChildren) {
    if (child.type === 'decorator' || child.type.includes('comment')) continue
    const inner = classify(child, ctx)
    if (inner !== null) return inner
    if (FUNCTION_VALUES.has(child.type)) return { name: defaultName(child) ?? 'default', type: 'function', body: child }
    if (CLASS_VALUES.has(child.type)) return { name: defaultName(child) ?? 'default', type: 'class', body: child }
  }
  return { name: null, type: 'export statement', body: node }
}

const DEFS: Readonly<Record<string, string>> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  method_definition: 'method',
  method_signature: 'method',
  abstract_method_signature: 'method',
}

const ALL_TYPES = [...Object.keys(DEFS), 'lexical_declaration', 'variable_declaration', 'internal_module', 'module', 'export_statement', 'ambient_declaration', 'expression_statement']

export const javascriptRules: LanguageRules = tableRules({
  defs: Object.fromEntries(ALL_TYPES.map((t) => [t, classify])),
  prefix: ['decorator'],
})
