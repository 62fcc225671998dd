/**
 * Elixir, Elm and OCaml.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, defaultName, unquote } from '../syntax.js'
import { tableRules } from './table.js'
import type { ClassifyContext, DefMatch, LanguageRules } from './types.js'

const ELIXIR_DEFS: Readonly<Record<string, string>> = {
  def: 'function',
  defp: 'function',
  defguard: 'function',
  defguardp: 'function',
  defdelegate: 'function',
  defmacro: 'macro',
  defmacrop: 'macro',
  defmodule: 'module',
  defprotocol: 'interface',
  defimpl: 'impl',
  defstruct: 'struct',
  defexception: 'struct',
}

function elixirHeadName(head: Node | undefined): string | null {
  if (head === undefined) return null
  switch (head.type) {
    case 'call':
      return cleanName(head.childForFieldName('target')?.text ?? '')
    case 'binary_operator':
      return elixirHeadName(head.childForFieldName('left') ?? undefined)
    case 'identifier':
    case 'alias':
      return cleanName(head.text)
    default:
      return null
  }
}

/** In Elixir, definitions are calls: `def name(args) do ... end`. */
function elixirCall(node: Node): DefMatch | null {
  const keyword = node.childForFieldName('target')?.text ?? ''
  const type = ELIXIR_DEFS[keyword]
  if (type === undefined) return null
  const args = node.namedChildren.find((c) => c.type === 'arguments')
  const name = type === 'struct' ? null : elixirHeadName(args?.namedChildren[0])
  return { name, type, body: node }
}

/** The attribute name of `@doc "..."`, or null for anything that is not a module attribute. */
function elixirAttribute(node: Node): { name: string; value: Node | undefined } | null {
  if (node.type !== 'unary_operator' || !node.text.startsWith('@')) return null
  const call = node.childForFieldName('operand')
  if (call === null || call.type !== 'call') return null
  const name = call.childForFieldName('target')?.text ?? ''
  return { name, value: call.namedChildren.find((c) => c.type === 'arguments')?.namedChildren[0] }
}

function elixirAttributeText(node: Node, wanted: string): string | null {
  const attribute = elixirAttribute(node)
  if (attribute === null || attribute.name !== wanted || attribute.value === undefined) return null
  if (attribute.value.type !== 'string' && attribute.value.type !== 'sigil') return null
  return unquote(attribute.value.text)
}

function elixirModuleDoc(match: DefMatch): string | null {
  if (match.type !== 'module') return null
  const block = match.body.namedChildren.find((c) => c.type === 'do_block')
  for (const child of block?.namedChildren ?? []) {
    const doc = elixirAttributeText(child, 'moduledoc')
    if (doc !== null) return doc
  }
  return null
}

export const elixirRules: LanguageRules = tableRules({
  defs: { call: elixirCall },
  prefixWhen: (node) => {
    const attribute = elixirAttribute(node)
    return attribute !== null && attribute.name !== 'moduledoc'
  },
  prefixDoc: (node) => elixirAttributeText(node, 'doc'),
  innerDoc: elixirModuleDoc,
})

function elmValue(node: Node): DefMatch {
  const left = node.namedChildren.find((c) => c.type === 'function_declaration_left')
  const ident = left?.namedChildren.find((c) => c.type === 'lower_case_identifier')
  return { name: ident === undefined ? null : cleanName(ident.text), type: 'function', body: node }
}

export const elmRules: LanguageRules = tableRules({
  defs: {
    value_declaration: elmValue,
    type_declaration: 'type',
    type_alias_declaration: 'type',
    port_annotation: 'function',
  },
  prefix: ['type_annotation'],
})

const OCAML_FUNCTION_BODIES = new Set(['fun_expression', 'function_expression'])

function ocamlValue(node: Node, ctx: ClassifyContext): DefMatch | null {
  const binding = node.namedChildren.find((c) => c.type === 'let_binding')
  const pattern = binding?.childForFieldName('pattern')
  if (binding === undefined || pattern === null || pattern === undefined || pattern.type !== 'value_name') return null
  const body = binding.childForFieldName('body')
  const isFunction = binding.namedChildren.some((c) => c.type === 'parameter') || (body !== null && OCAML_FUNCTION_BODIES.has(body.type))
  if (!isFunction && !ctx.moduleLevel) return null
  return { name: cleanName(pattern.text), type: isFunction ? 'function' : 'variable', body: node }
}

/** OCaml wraps each definition's name in a binding node: `module M = ...` → module_binding. */
function ocamlBinding(bindingType: string, type: string) {
  return (node: Node): DefMatch => {
    const binding = node.namedChildren.find((c) => c.type === bindingType)
    return { name: defaultName(binding ?? node), type, body: node }
  }
}

function ocamlException(node: Node): DefMatch {
  const ctor = node.namedChildren.find((c) => c.type === 'constructor_declaration')
  return { name: ctor === undefined ? null : defaultName(ctor), type: 'type', body: node }
}

export const ocamlRules: LanguageRules = tableRules({
  defs: {
    value_definition: ocamlValue,
    type_definition: ocamlBinding('type_binding', 'type'),
    module_definition: ocamlBinding('module_binding', 'module'),
    module_type_definition: 'interface',
    class_definition: ocamlBinding('class_binding', 'class'),
    class_type_definition: ocamlBinding('class_type_binding', 'interface'),
    exception_definition: ocamlException,
    external: 'function',
    value_specification: 'function',
  },
})
