/**
 * Go, Rust, Zig, Swift, Kotlin and Scala.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, defaultName, hasKeyword, unquote } from '../syntax.js'
import { tableRules } from './table.js'
import type { ClassifyContext, DefMatch, LanguageRules } from './types.js'

/** `func (p *Point[T]) Move()` belongs to Point. */
function goMethod(node: Node): DefMatch {
  const receiver = node.childForFieldName('receiver')
  const param = receiver?.namedChildren.find((c) => c.type === 'parameter_declaration')
  const typeText = param?.childForFieldName('type')?.text ?? ''
  const owner = cleanName(typeText.replace(/^[*\s]+/, '').replace(/\[.*$/s, ''))
  const match: DefMatch = { name: defaultName(node), type: 'method', body: node }
  if (owner !== null) match.owner = [owner]
  return match
}

function goTypeKind(spec: Node): string {
  const type = spec.childForFieldName('type')?.type
  if (type === 'struct_type') return 'struct'
  if (type === 'interface_type') return 'interface'
  return 'type'
}

/** A `type (...)` group names its single spec, or stays unnamed when it declares several. */
function goTypeDeclaration(node: Node): DefMatch {
  const specs = node.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias')
  if (specs.length !== 1) return { name: null, type: 'type', body: node }
  const spec = specs[0]!
  return { name: defaultName(spec), type: goTypeKind(spec), body: spec }
}

function goVariable(node: Node, ctx: ClassifyContext): DefMatch | null {
  if (!ctx.moduleLevel) return null
  const specs = node.namedChildren.filter((c) => c.type === 'const_spec' || c.type === 'var_spec')
  if (specs.length !== 1) return null
  const names = specs[0]!.childrenForFieldName('name')
  if (names.length !== 1) return null
  return { name: cleanName(names[0]!.text), type: 'variable', body: node }
}

export const goRules: LanguageRules = tableRules({
  defs: {
    function_declaration: 'function',
    method_declaration: goMethod,
    type_declaration: goTypeDeclaration,
    const_declaration: goVariable,
    var_declaration: goVariable,
  },
})

/** `impl<T> Shape for Point<T>` is named after the implementing type, Point. */
function rustImpl(node: Node): DefMatch {
  const type = node.childForFieldName('type')
  const base = type?.type === 'generic_type' ? type.childForFieldName('type') : type
  return { name: base === null || base === undefined ? null : cleanName(base.text), type: 'impl', body: node }
}

function moduleLevelOnly(type: string) {
  return (node: Node, ctx: ClassifyContext): DefMatch | null => (ctx.moduleLevel ? { name: defaultName(node), type, body: node } : null)
}

export const rustRules: LanguageRules = tableRules({
  defs: {
    function_item: 'function',
    function_signature_item: 'function',
    struct_item: 'struct',
    union_item: 'struct',
    enum_item: 'enum',
    trait_item: 'trait',
    impl_item: rustImpl,
    mod_item: 'module',
    type_item: 'type',
    macro_definition: 'macro',
    const_item: moduleLevelOnly('variable'),
    static_item: moduleLevelOnly('variable'),
  },
  prefix: ['attribute_item'],
})

const ZIG_CONTAINERS: Readonly<Record<string, string>> = {
  struct_declaration: 'struct',
  union_declaration: 'struct',
  opaque_declaration: 'struct',
  enum_declaration: 'enum',
  error_set_declaration: 'type',
}

/** `const Point = struct { ... }` is how Zig declares types. */
function zigVariable(node: Node, ctx: ClassifyContext): DefMatch | null {
  const name = defaultName(node)
  for (const child of node.namedChildren) {
    const kind = ZIG_CONTAINERS[child.type]
    if (kind !== undefined) return { name, type: kind, body: child }
  }
  return ctx.moduleLevel ? { name, type: 'variable', body: node } : null
}

function zigTest(node: Node): DefMatch {
  const label = node.namedChildren.find((c) => c.type === 'string' || c.type === 'identifier')
  return { name: label === undefined ? null : cleanName(unquote(label.text)), type: 'test', body: node }
}

export const zigRules: LanguageRules = tableRules({
  defs: {
    function_declaration: 'function',
    variable_declaration: zigVariable,
    test_declaration: zigTest,
  },
})

const SWIFT_KINDS: Readonly<Record<string, string>> = {
  class: 'class',
  struct: 'struct',
  enum: 'enum',
  extension: 'extension',
  actor: 'class',
}

function swiftTypeDeclaration(node: Node): DefMatch {
  const kind = node.childForFieldName('declaration_kind')?.text ?? 'class'
  return { name: defaultName(node), type: SWIFT_KINDS[kind] ?? 'class', body: node }
}

function named(name: string, type: string) {
  return (node: Node): DefMatch => ({ name, type, body: node })
}

export const swiftRules: LanguageRules = tableRules({
  defs: {
    class_declaration: swiftTypeDeclaration,
    protocol_declaration: 'interface',
    function_declaration: 'function',
    protocol_function_declaration: 'method',
    init_declaration: named('init', 'method'),
    deinit_declaration: named('deinit', 'method'),
    subscript_declaration: named('subscript', 'method'),
    typealias_declaration: 'type',
  },
})

function kotlinClass(node: Node): DefMatch {
  let type = 'class'
  if (hasKeyword(node, 'interface')) type = 'interface'
  else if (node.namedChildren.some((c) => c.type === 'enum_class_body')) type = 'enum'
  return { name: defaultName(node), type, body: node }
}

function kotlinProperty(node: Node, ctx: ClassifyContext): DefMatch | null {
  if (!ctx.moduleLevel) return null
  const variable = node.namedChildren.find((c) => c.type === 'variable_declaration')
  const name = variable === undefined ? null : defaultName(variable)
  return name === null ? null : { name, type: 'variable', body: node }
}

export const kotlinRules: LanguageRules = tableRules({
  defs: {
    class_declaration: kotlinClass,
    object_declaration: 'class',
    companion_object: (node) => ({ name: defaultName(node) ?? 'Companion', type: 'class', body: node }),
    function_declaration: 'function',
    secondary_constructor: named('constructor', 'method'),
    type_alias: 'type',
    property_declaration: kotlinProperty,
  },
})

function scalaValue(node: Node, ctx: ClassifyContext): DefMatch | null {
  if (!ctx.moduleLevel) return null
  const pattern = node.childForFieldName('pattern')
  if (pattern === null || pattern.type !== 'identifier') return null
  return { name: cleanName(pattern.text), type: 'variable', body: node }
}

export const scalaRules: LanguageRules = tableRules({
  defs: {
    class_definition: 'class',
    object_definition: 'class',
    trait_definition: 'trait',
    enum_definition: 'enum',
    function_definition: 'function',
    function_declaration: 'function',
    type_definition: 'type',
    extension_definition: (node) => ({ name: null, type: 'extension', body: node }),
    val_definition: scalaValue,
    var_definition: scalaValue,
  },
})
