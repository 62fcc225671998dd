import type * as z from 'zod'
import type { JsonCamelCased } from '../util/index.js'
import type { CallContext } from './call-context.js'

/** One command-line option of an operation: the flag, and the input field it fills. */
export interface CliOption {
  /** The input field (as the schema names it, snake_case). */
  field: string
  /** `--limit`; a boolean flag also accepts `--no-…` when its field defaults to true. */
  flag: string
  kind: 'string' | 'integer' | 'boolean' | 'list'
  description: string
}

/** One positional word of a command and the input field it fills; `then` lists the words after the first, in order. */
interface CliPositional {
  field: string
  required: boolean
  /** The word's name in help when the field's name would mislead (default: the field). */
  label?: string
}

/** Where human text is shown: on a terminal that takes styling, matched words can be emphasised. */
export interface TextView {
  /** Wraps a word to stand out (bold on a terminal); absent where text must stay plain. */
  emphasis?: (word: string) => string
}

/** How a result reads for a person: the one presenter every surface prints with. */
export interface Presenter<R> {
  /**
   * The human text of a result (may load what it needs to render it). Presenters read the
   * result as the command line hands it over, from this process or a remote brain alike: through
   * JSON and back, every key in camelCase.
   */
  text: (result: JsonCamelCased<R>, view?: TextView) => string | Promise<string>
  /** What `--json` prints; the whole result by default. */
  json?: (result: JsonCamelCased<R>) => unknown
  /** A result's `notice`, printed on stderr before human text. */
  notice?: (result: JsonCamelCased<R>) => string | null | undefined
}

/**
 * How an operation appears on the command line. The command is generated from this: the words
 * and flags become the same input object the MCP tool takes, validated by the same schema.
 */
export interface CliShape {
  path: string[]
  description: string
  details?: string
  examples?: Array<[string, string]>
  /** The positional words: one field, or every remaining word joined with spaces. */
  positional?: CliPositional & { rest?: boolean; then?: CliPositional[] }
  options: CliOption[]
  /** A flag that reads the field from standard input instead of (or after) the positional words. */
  stdin?: { field: string; flag: string; description: string }
  /** Prefix of the error code of a bad whole number: `<prefix>invalid_<flag>`. */
  integerErrorPrefix?: string
  /** Older spellings of the path, hidden from help; using one prints the notice on stderr. */
  aliases?: { paths: string[][]; notice: string }
  /** The exit code of a result that was printed (default 0). */
  exitCode?: (result: Record<string, unknown>) => number
  /** An input field the command fills with its working directory, unless given otherwise. */
  cwdField?: string
  /** Try the database once, without connect retries, so that an unreachable server is reported at once. */
  connectOnce?: boolean
}

/**
 * One user-facing operation, defined once: the schema of its arguments, the call into the core,
 * and how its result reads for a person. MCP serves it as a tool, the CLI as a command (when it
 * has a `cli` shape), a thin client as a remote call of the tool with the same arguments.
 */
export interface Operation<S extends z.ZodType = z.ZodType, R extends object = Record<string, unknown>> {
  name: string
  /** Written for an agent choosing between tools: what it does, when to use it, what it returns. */
  description: string
  input: S
  /** Mutating operations need the `write` scope over HTTP. */
  mutating: boolean
  /** Needs the `admin` scope over HTTP (on top of `write` when mutating). */
  admin?: boolean
  /**
   * Part of an agent's memory: listed in the lean `memory` tool profile (`brain serve --tools
   * memory`), which agent installs serve. The other profiles follow from `mutating` and `admin`.
   */
  memory?: boolean
  /**
   * Reads and writes only the one source its `source` argument names (default: default), so a
   * token limited to a source may call it, with that source. Other operations refuse such tokens.
   */
  sourceScoped?: boolean
  /** Returns a JSON object; it becomes both the text content and the structured content. */
  run(ctx: CallContext, args: z.output<S>): Promise<R>
  /** How its result reads on a terminal; needed by any command that runs it. */
  present?: Presenter<R>
  /** Generates a command of its own; a hand-written command may run the operation instead. */
  cli?: CliShape
}

export function defineOperation<S extends z.ZodType, R extends object>(definition: Operation<S, R>): Operation {
  return definition as unknown as Operation
}
