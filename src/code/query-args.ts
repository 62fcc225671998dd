import { languageForFenceTag } from '../chunking/languages.js'
import { UsageError } from '../errors/index.js'

export type CodeCommand = 'code_def' | 'code_refs' | 'code_callers' | 'code_callees'

export const DEFAULT_CODE_LIMIT = 20
export const MAX_CODE_LIMIT = 1000

/** A missing or blank symbol is a usage error with a code of its own per command. */
export function requireSymbol(command: CodeCommand, symbol: string | undefined | null): string {
  const trimmed = typeof symbol === 'string' ? symbol.trim() : ''
  if (trimmed === '') {
    const cli = command.replace('_', '-')
    throw new UsageError(`${command}_requires_symbol`, `${cli} needs a symbol name.`, {
      hint: `Pass the name to look up, e.g. \`brain ${cli} importPage\` or \`brain ${cli} Queue.submit\`.`,
    })
  }
  // `Class::method`, `Class#method` and `obj->method` are spelled `Class.method` in chunk metadata.
  return trimmed.replace(/::|#|->/g, '.')
}

export function resolveLimit(command: CodeCommand, limit: number | undefined, fallback = DEFAULT_CODE_LIMIT): number {
  if (limit === undefined) return fallback
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CODE_LIMIT) {
    throw new UsageError(`${command}_invalid_limit`, `limit must be a whole number from 1 to ${MAX_CODE_LIMIT}, not ${String(limit)}.`)
  }
  return limit
}

/** `ts`, `py`, `golang` → the canonical language id; null for none. */
export function canonicalLanguage(raw: string | undefined): string | null {
  const value = raw?.trim().toLowerCase()
  if (!value) return null
  return languageForFenceTag(value) ?? value
}

/** `Queue.submit` → { qualifier: 'Queue', name: 'submit' }; a bare name has no qualifier. */
export function splitSymbol(symbol: string): { qualifier: string | null; name: string } {
  const dot = symbol.lastIndexOf('.')
  if (dot <= 0 || dot === symbol.length - 1) return { qualifier: null, name: symbol }
  return { qualifier: symbol.slice(0, dot), name: symbol.slice(dot + 1) }
}
