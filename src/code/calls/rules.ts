/**
 * Which syntax nodes are call sites, per language. Node type names come from the tree-sitter
 * grammars the chunker loads; a language absent from this table yields no call sites.
 */
import type { CodeLanguage } from '../../chunking/index.js'

export interface CallRules {
  /** Calls whose callee is an expression in the `function` field (or the first named child). */
  readonly calls: ReadonlySet<string>
  /** Calls spelled as receiver + name fields (`object`/`receiver`/`scope` and `name`/`method`). */
  readonly memberCalls: ReadonlySet<string>
  /** Constructor calls: the constructed type is the callee. */
  readonly constructs: ReadonlySet<string>
  /** Import nodes whose bound names are recorded as `imports` edges. */
  readonly imports: ReadonlySet<string>
  /** Callee names that are language keywords in call position, never user definitions. */
  readonly ignore: ReadonlySet<string>
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items)
const NONE = set()

function rules(partial: Partial<Record<keyof CallRules, ReadonlySet<string>>>): CallRules {
  return { calls: NONE, memberCalls: NONE, constructs: NONE, imports: NONE, ignore: NONE, ...partial }
}

const JS = rules({
  calls: set('call_expression'),
  constructs: set('new_expression'),
  imports: set('import_specifier'),
  ignore: set('require', 'super', 'import'),
})

const C_LIKE = rules({ calls: set('call_expression'), ignore: set('sizeof') })

export const CALL_RULES: Partial<Record<CodeLanguage, CallRules>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: rules({ calls: set('call'), imports: set('import_from_statement'), ignore: set('super') }),
  go: rules({ calls: set('call_expression'), constructs: set('composite_literal'), ignore: set('make', 'new', 'len', 'cap', 'append') }),
  rust: rules({ calls: set('call_expression'), constructs: set('struct_expression') }),
  java: rules({ memberCalls: set('method_invocation'), constructs: set('object_creation_expression') }),
  csharp: rules({ calls: set('invocation_expression'), constructs: set('object_creation_expression'), ignore: set('nameof') }),
  ruby: rules({ memberCalls: set('call'), ignore: set('require', 'require_relative', 'attr_accessor', 'attr_reader', 'include', 'puts') }),
  php: rules({
    calls: set('function_call_expression'),
    memberCalls: set('member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression'),
    constructs: set('object_creation_expression'),
  }),
  c: C_LIKE,
  cpp: rules({ calls: set('call_expression'), constructs: set('new_expression'), ignore: set('sizeof') }),
  kotlin: rules({ calls: set('call_expression') }),
  swift: rules({ calls: set('call_expression') }),
  scala: rules({ calls: set('call_expression') }),
  lua: rules({ calls: set('function_call'), ignore: set('require') }),
  elixir: rules({
    calls: set('call'),
    ignore: set('def', 'defp', 'defmodule', 'defmacro', 'defstruct', 'defimpl', 'defprotocol', 'use', 'import', 'alias', 'require', 'if', 'case', 'cond', 'with', 'for', 'unless'),
  }),
  zig: rules({ calls: set('call_expression') }),
  solidity: rules({ calls: set('call_expression'), ignore: set('require', 'assert', 'revert') }),
  bash: rules({ calls: set('command') }),
}
