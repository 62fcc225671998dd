import type * as z from 'zod'
import { toSnakeCaseJson } from '../util/json-shape.js'
import { BrainError, UsageError, serializeError, type ErrorEnvelope } from '../errors/index.js'
import { findTool } from '../operations/catalogue.js'
import type { CallContext, Operation, ToolSelection } from '../operations/index.js'

/** A tools/call result as the MCP protocol carries it. */
export interface ToolResult {
  [key: string]: unknown
  content: Array<{ type: 'text'; text: string }>
  structuredContent: Record<string, unknown>
  isError?: boolean
}

export interface DispatchOutcome {
  result: ToolResult
  /** The envelope's code when the call failed, for the audit row. */
  errorCode: string | null
}

/** The calling token lacks a scope the tool needs. */
export class ScopeError extends BrainError {
  override readonly errorClass = 'AuthError'
}

/** Results whose text is exactly their structuredContent serialised, as made below. */
const textIsStructured = new WeakSet<ToolResult>()

/**
 * The text half is structuredContent as compact JSON: an agent pays for every token it reads,
 * and the HTTP route can reuse the text as the structured half's serialisation.
 */
function resultOf(structured: Record<string, unknown>, isError: boolean): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...(isError ? { isError: true } : {}) }
  textIsStructured.add(result)
  return result
}

function success(value: Record<string, unknown>): ToolResult {
  return resultOf(toSnakeCaseJson(value) as Record<string, unknown>, false)
}

export function errorResult(envelope: ErrorEnvelope): ToolResult {
  return resultOf({ error: envelope }, true)
}

/**
 * A result's JSON. For results made here the structured half is spliced in from the text
 * instead of being serialised a second time; search results are most of a busy server's output.
 */
export function toolResultJson(result: ToolResult): string {
  const text = result.content[0]?.text
  if (!textIsStructured.has(result) || result.content.length !== 1 || text === undefined) return JSON.stringify(result)
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${result.isError === true ? ',"isError":true' : ''}}`
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ')
}

/**
 * A token limited to one source reaches only source-scoped operations, with its source filled
 * in when the call names none; any other source, or any other operation, is refused.
 */
function limitToSource(ctx: CallContext, tool: Operation, name: string, args: unknown): unknown {
  const limit = ctx.sourceLimit ?? null
  if (limit === null) return args
  if (!tool.sourceScoped) {
    return new ScopeError('source_limited_token', `${name} is not available to a token limited to source ${limit}.`, {
      hint: 'Use recall or remember, or a token that is not limited to a source.',
    })
  }
  const given = (args as { source?: string }).source
  if (given !== undefined && given !== limit) {
    return new ScopeError('source_not_allowed', `This token is limited to source ${limit}; it cannot reach source ${given}.`, { hint: `Leave source out, or pass ${limit}.` })
  }
  return { ...(args as Record<string, unknown>), source: limit }
}

/**
 * Validates, authorizes and runs one tool call. Every failure becomes a result with isError and
 * the `{class, code, hint}` envelope; nothing is thrown to the transport. `tools` is the
 * session's profile (default: the whole catalogue): a tool outside it is refused as if it were
 * not served, whatever the caller's scopes.
 */
export async function dispatchTool(ctx: CallContext, name: string, rawArgs: unknown, tools?: ToolSelection): Promise<DispatchOutcome> {
  const fail = (err: unknown): DispatchOutcome => {
    const envelope = serializeError(err)
    return { result: errorResult(envelope), errorCode: envelope.code }
  }
  const tool = findTool(name)
  if (!tool) return fail(new UsageError('unknown_tool', `There is no tool named ${JSON.stringify(name).slice(0, 200)}.`, { hint: 'Call tools/list for the catalogue.' }))
  if (tools !== undefined && !tools.names.has(name)) {
    return fail(
      new UsageError('tool_not_in_profile', `${name} is not served in this session: its tool profile is ${tools.label.slice(0, 200)}.`, {
        hint: 'Call tools/list for the tools served here; a server started with `brain serve --tools all` (or a profile that holds the tool) serves it.',
      }),
    )
  }
  const parsed = tool.input.safeParse(rawArgs ?? {})
  if (!parsed.success) {
    return fail(new UsageError('invalid_params', `Invalid arguments for ${name}: ${describeIssues(parsed.error)}`, { hint: `See the input schema of ${name} in tools/list.` }))
  }
  if (ctx.scopes !== null) {
    if (tool.mutating && !ctx.scopes.includes('write')) {
      return fail(
        new ScopeError('insufficient_scope', `${name} changes the brain and needs a token with the write scope.`, { hint: 'Create one with `brain auth create <name> --scopes read,write`.' }),
      )
    }
    if (tool.admin && !ctx.scopes.includes('admin')) {
      return fail(new ScopeError('insufficient_scope', `${name} needs a token with the admin scope.`, { hint: 'Create one with `brain auth create <name> --scopes read,write,admin`.' }))
    }
    // Writing implies reading; admin opens the admin operations that only read, nothing else.
    if (!tool.mutating && !tool.admin && !ctx.scopes.includes('read') && !ctx.scopes.includes('write')) {
      return fail(new ScopeError('insufficient_scope', `${name} needs a token with the read scope.`, { hint: 'Create one with `brain auth create <name> --scopes read`.' }))
    }
  }
  const limited = limitToSource(ctx, tool, name, parsed.data)
  if (limited instanceof ScopeError) return fail(limited)
  try {
    return { result: success(await tool.run(ctx, limited)), errorCode: null }
  } catch (err) {
    if (!(err instanceof BrainError)) ctx.logger.error(`tool ${name} failed`, { error: err instanceof Error ? err.message : String(err) })
    return fail(err)
  }
}
