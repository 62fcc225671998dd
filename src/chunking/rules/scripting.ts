/**
 * Python, Ruby, Lua, Bash and PHP.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, unquote } from '../syntax.js'
import { simpleDef, tableRules } from './table.js'
import type { ClassifyContext, DefMatch, LanguageRules } from './types.js'

/** The docstring: a string literal as the first statement of a def or class body. */
function pythonDocstring(match: DefMatch): string | null {
  const block = match.body.childForFieldName('body')
  const first = block?.namedChildren[0]
  if (first === undefined || first.type !== 'expression_statement') return null
  const literal = first.namedChildren[0]
  if (literal === undefined || literal.type !== 'string') return null
  return unquote(literal.text.replace(/^[rRbBuUfF]+/, ''))
}

function pythonDecorated(node: Node): DefMatch | null {
  const inner = node.childForFieldName('definition')
  if (inner === null) return null
  const type = inner.type === 'class_definition' ? 'class' : 'function'
  return { ...simpleDef(inner, type), body: inner }
}

function pythonAssignment(node: Node, ctx: ClassifyContext): DefMatch | null {
  if (!ctx.moduleLevel) return null
  const assignment = node.namedChildren[0]
  if (assignment === undefined || assignment.type !== 'assignment') return null
  const left = assignment.childForFieldName('left')
  if (left === null || left.type !== 'identifier') return null
  return { name: cleanName(left.text), type: 'variable', body: node }
}

export const pythonRules: LanguageRules = tableRules({
  defs: {
    function_definition: 'function',
    class_definition: 'class',
    decorated_definition: pythonDecorated,
    expression_statement: pythonAssignment,
  },
  innerDoc: (match) => (match.type === 'variable' ? null : pythonDocstring(match)),
})

export const rubyRules: LanguageRules = tableRules({
  defs: {
    method: 'function',
    singleton_method: 'method',
    class: 'class',
    module: 'module',
  },
})

interface LuaName {
  name: string | null
  owner?: string[]
  method: boolean
}

function luaName(node: Node | null): LuaName | null {
  if (node === null) return null
  if (node.type === 'identifier') return { name: cleanName(node.text), method: false }
  const field = node.childForFieldName(node.type === 'method_index_expression' ? 'method' : 'field')
  const table = node.childForFieldName('table')
  if (field === null || table === null) return null
  if (node.type !== 'dot_index_expression' && node.type !== 'method_index_expression') return null
  return { name: cleanName(field.text), owner: table.text.split(/[.:]/), method: node.type === 'method_index_expression' }
}

function luaDef(named: LuaName, body: Node, type: string): DefMatch {
  const match: DefMatch = { name: named.name, type: named.method ? 'method' : type, body }
  if (named.owner !== undefined) match.owner = named.owner
  return match
}

function luaFunction(node: Node): DefMatch | null {
  const named = luaName(node.childForFieldName('name'))
  return named === null ? null : luaDef(named, node, 'function')
}

/** `local f = function() end`, `M.f = function() end`, and module-level variables. */
function luaAssignment(node: Node, ctx: ClassifyContext): DefMatch | null {
  const assignment = node.type === 'assignment_statement' ? node : node.namedChildren[0]
  if (assignment === undefined || assignment.type !== 'assignment_statement') return null
  const vars = assignment.namedChildren.find((c) => c.type === 'variable_list')?.namedChildren ?? []
  const values = assignment.namedChildren.find((c) => c.type === 'expression_list')?.namedChildren ?? []
  if (vars.length !== 1) return null
  const named = luaName(vars[0] ?? null)
  if (named === null) return null
  if (values.length === 1 && values[0]!.type === 'function_definition') return luaDef(named, values[0]!, 'function')
  if (!ctx.moduleLevel || named.owner !== undefined) return null
  return luaDef(named, node, 'variable')
}

export const luaRules: LanguageRules = tableRules({
  defs: {
    function_declaration: luaFunction,
    variable_declaration: luaAssignment,
    assignment_statement: luaAssignment,
  },
})

export const bashRules: LanguageRules = tableRules({
  defs: { function_definition: 'function' },
})

export const phpRules: LanguageRules = tableRules({
  defs: {
    class_declaration: 'class',
    interface_declaration: 'interface',
    trait_declaration: 'trait',
    enum_declaration: 'enum',
    function_definition: 'function',
    method_declaration: 'method',
    namespace_definition: 'module',
  },
})
