/**
 * C, C++, Java, C#, Dart and Solidity.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, defaultName } from '../syntax.js'
import { simpleDef, tableRules, unwrap } from './table.js'
import type { Classifier, DefMatch, LanguageRules } from './types.js'

const DECLARATOR_WRAPPERS = new Set(['function_declarator', 'pointer_declarator', 'reference_declarator', 'parenthesized_declarator', 'array_declarator', 'attributed_declarator'])

function stripTemplateArgs(text: string): string {
  let out = text
  for (let prev = ''; prev !== out;) {
    prev = out
    out = out.replace(/<[^<>]*>/g, '')
  }
  return out
}

/** Follows a C declarator chain (`*f(int)`, `(*g)(void)`) down to the declared name. */
function declaratorName(start: Node | null): { name: string | null; owner?: string[] } | null {
  let decl = start
  while (decl !== null && DECLARATOR_WRAPPERS.has(decl.type)) {
    decl = decl.childForFieldName('declarator') ?? decl.namedChildren[0] ?? null
  }
  if (decl === null) return null
  if (decl.type !== 'qualified_identifier') return { name: cleanName(decl.text) }
  const parts = stripTemplateArgs(decl.text)
    .split('::')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  const name = parts.pop() ?? null
  return parts.length > 0 ? { name, owner: parts } : { name }
}

function cFunction(node: Node): DefMatch | null {
  const named = declaratorName(node.childForFieldName('declarator'))
  if (named === null) return null
  const match: DefMatch = { name: named.name, type: named.owner === undefined ? 'function' : 'method', body: node }
  if (named.owner !== undefined) match.owner = named.owner
  return match
}

/** `struct s { ... }` defines a type; a bare `struct s;` only mentions one. */
function withBody(type: string): Classifier {
  return (node) => (node.childForFieldName('body') === null ? null : simpleDef(node, type))
}

function cTypedef(node: Node): DefMatch | null {
  const named = declaratorName(node.childForFieldName('declarator'))
  return { name: named?.name ?? null, type: 'type', body: node }
}

const C_DEFS: Record<string, string | Classifier> = {
  function_definition: cFunction,
  struct_specifier: withBody('struct'),
  union_specifier: withBody('struct'),
  enum_specifier: withBody('enum'),
  type_definition: cTypedef,
  preproc_function_def: 'macro',
}

/** Header guards and `#if` blocks are looked through at top level. */
const C_TRANSPARENT = ['preproc_ifdef', 'preproc_if', 'preproc_else', 'preproc_elif', 'linkage_specification', 'declaration_list']

export const cRules: LanguageRules = tableRules({ defs: C_DEFS, transparent: C_TRANSPARENT })

function cppNamespace(node: Node): DefMatch {
  const name = node.childForFieldName('name')
  return { name: name === null ? null : cleanName(name.text), type: 'module', body: node }
}

const CPP_DEFS: Record<string, string | Classifier> = {
  ...C_DEFS,
  class_specifier: withBody('class'),
  namespace_definition: cppNamespace,
  alias_declaration: 'type',
  concept_definition: 'type',
}
CPP_DEFS['template_declaration'] = unwrap(Object.keys(CPP_DEFS), (child, ctx) => cppRules.classify(child, ctx))

export const cppRules: LanguageRules = tableRules({ defs: CPP_DEFS, transparent: C_TRANSPARENT })

export const javaRules: LanguageRules = tableRules({
  defs: {
    class_declaration: 'class',
    record_declaration: 'class',
    interface_declaration: 'interface',
    annotation_type_declaration: 'interface',
    enum_declaration: 'enum',
    method_declaration: 'method',
    constructor_declaration: 'method',
    compact_constructor_declaration: 'method',
  },
})

export const csharpRules: LanguageRules = tableRules({
  defs: {
    namespace_declaration: 'module',
    file_scoped_namespace_declaration: 'module',
    class_declaration: 'class',
    record_declaration: 'class',
    record_struct_declaration: 'struct',
    interface_declaration: 'interface',
    struct_declaration: 'struct',
    enum_declaration: 'enum',
    delegate_declaration: 'type',
    method_declaration: 'method',
    constructor_declaration: 'method',
    destructor_declaration: 'method',
    operator_declaration: 'method',
    local_function_statement: 'function',
  },
})

const DART_SIGNATURES = ['function_signature', 'getter_signature', 'setter_signature', 'constructor_signature', 'factory_constructor_signature', 'operator_signature']

/** A Dart method_signature wraps the real signature; the body is a separate sibling. */
function dartMethod(node: Node): DefMatch | null {
  const inner = node.namedChildren.find((c) => DART_SIGNATURES.includes(c.type))
  return { name: inner === undefined ? defaultName(node) : defaultName(inner), type: 'method', body: node }
}

function dartExtension(node: Node): DefMatch {
  const name = defaultName(node) ?? cleanName(node.childForFieldName('class')?.text ?? '')
  return { name, type: 'extension', body: node }
}

export const dartRules: LanguageRules = tableRules({
  defs: {
    class_definition: 'class',
    mixin_declaration: 'trait',
    extension_declaration: dartExtension,
    enum_declaration: 'enum',
    function_signature: 'function',
    method_signature: dartMethod,
    type_alias: 'type',
  },
  prefix: ['annotation', 'marker_annotation'],
  continuation: ['function_body'],
})

function solidityNamed(name: string, type: string): Classifier {
  return (node) => ({ name, type, body: node })
}

function solidityFallback(node: Node): DefMatch {
  const keyword = /^\s*(fallback|receive)/.exec(node.text)
  return { name: keyword?.[1] ?? 'fallback', type: 'function', body: node }
}

export const solidityRules: LanguageRules = tableRules({
  defs: {
    contract_declaration: 'contract',
    library_declaration: 'contract',
    interface_declaration: 'interface',
    function_definition: 'function',
    modifier_definition: 'modifier',
    constructor_definition: solidityNamed('constructor', 'function'),
    fallback_receive_definition: solidityFallback,
    event_definition: 'event',
    error_declaration: 'error',
    struct_declaration: 'struct',
    enum_declaration: 'enum',
    user_defined_type_definition: 'type',
  },
  // Solidity calls them functions wherever they are declared.
  methodContainers: [],
})
