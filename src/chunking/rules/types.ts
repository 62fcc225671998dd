import type { Node } from 'web-tree-sitter'

/** What a language rule says about a syntax node that defines a symbol. */
export interface DefMatch {
  name: string | null
  /** Symbol type before scope adjustment (a `function` inside a class becomes a `method`). */
  type: string
  /** The node whose children hold the members; differs from the matched node for wrappers. */
  body: Node
  /** Scope the definition names itself: a Go receiver, a C++ `A::B::f`, a Lua `M.f`. */
  owner?: string[]
  /** A doc comment found inside the definition (Python docstring, Elixir @moduledoc). */
  doc?: string | null
}

export interface ClassifyContext {
  /** True outside any named definition; module-level variables count as symbols only here. */
  readonly moduleLevel: boolean
}

export interface LanguageRules {
  classify(node: Node, ctx: ClassifyContext): DefMatch | null
  /** Nodes that belong to the definition after them: comments, attributes, annotations. */
  isPrefix(node: Node): boolean
  /** Text a prefix node contributes to the doc comment, or null when it contributes none. */
  prefixDoc(node: Node): string | null
  /** Wrapper nodes whose children are chunked as if they were top level (a JSON root object). */
  readonly transparent: ReadonlySet<string>
  /** Siblings that complete the definition before them (Dart's separate function_body). */
  readonly continuation: ReadonlySet<string>
  /** Symbol types inside which a `function` is reported as a `method`. */
  readonly methodContainers: ReadonlySet<string>
}

export type Classifier = (node: Node, ctx: ClassifyContext) => DefMatch | null
