import { ConfigError } from '../errors/index.js'

/** A JSON object read from an agent's config file, and how to write it back the way it was laid out. */
interface JsonDoc {
  value: Record<string, unknown>
  indent: string
  /** Whether the file ends with a newline: Claude Code writes its ~/.claude.json without one. */
  finalNewline: boolean
}

/** Reads an agent's JSON config; a file with comments or another shape is refused, never rewritten. */
export function parseJsonConfig(path: string, text: string | null, entries?: () => string): JsonDoc {
  if (text === null || text.trim() === '') return { value: {}, indent: '  ', finalNewline: true }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new ConfigError('agent_config_unreadable', `${path} is not plain JSON (${err instanceof Error ? err.message : String(err)}); brain will not rewrite it.`, {
      hint: `Remove comments and trailing commas and run the install again, or add brain's entries by hand${entries ? `: ${entries()}` : ''}.`,
    })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('agent_config_unreadable', `${path} does not hold a JSON object.`, { hint: 'Fix the file, then run the install again.' })
  }
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return { value: value as Record<string, unknown>, indent, finalNewline: text.endsWith('\n') }
}

export function formatJson(doc: JsonDoc): string {
  return `${JSON.stringify(doc.value, null, doc.indent)}${doc.finalNewline ? '\n' : ''}`
}

/** Whether a file's text holds this value (what an uninstall compares with the file brain found). */
export function holdsValue(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value)
  } catch {
    return false
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The object at `key`, made when missing; a non-object there is refused. */
export function objectAt(path: string, parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const found = parent[key]
  if (found === undefined) {
    const made: Record<string, unknown> = {}
    parent[key] = made
    return made
  }
  if (!isObject(found)) throw new ConfigError('agent_config_unreadable', `${path}: "${key}" is not an object.`, { hint: 'Fix the file, then run the install again.' })
  return found
}

/** Drops `key` from `parent` when it holds an empty object (one brain's removal emptied). */
export function dropIfEmpty(parent: Record<string, unknown>, key: string): void {
  const found = parent[key]
  if (isObject(found) && Object.keys(found).length === 0) delete parent[key]
  if (Array.isArray(found) && found.length === 0) delete parent[key]
}
