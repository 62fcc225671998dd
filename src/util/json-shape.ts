/**
 * JSON output uses the spec's snake_case field names (content_hash, page_kind, write_through…)
 * while the TypeScript code uses camelCase. User-owned maps (front matter, job data, metadata)
 * and maps keyed by an error code (`counts`, e.g. MISSING_CLOSE) are copied as they are.
 */
const USER_OWNED_KEYS = ['frontmatter', 'metadata', 'data', 'counts'] as const
const USER_OWNED: ReadonlySet<string> = new Set(USER_OWNED_KEYS)

/** Fields the specification itself names in camelCase; they keep that name in JSON. */
const SPEC_NAMES = ['edgesTargetsMissing']

/** Field names repeat in every result; converting each once keeps big answers cheap. */
const snakeNames = new Map<string, string>(SPEC_NAMES.map((name) => [name, name]))
const SNAKE_NAMES_KEPT = 10_000

function snake(key: string): string {
  let name = snakeNames.get(key)
  if (name === undefined) {
    name = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
    if (snakeNames.size < SNAKE_NAMES_KEPT) snakeNames.set(key, name)
  }
  return name
}

export function toSnakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSnakeCaseKeys)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [snake(key), USER_OWNED.has(key) ? inner : toSnakeCaseKeys(inner)]))
}

/**
 * What `JSON.parse(JSON.stringify(toSnakeCaseKeys(value)))` would give, in one pass: snake_case
 * keys (user-owned maps as they are), dates as ISO strings (anything with toJSON through it),
 * bigints as numbers, non-finite numbers as null, and undefined or functions dropped from objects
 * and null in arrays.
 */
export function toSnakeCaseJson(value: unknown): unknown {
  return plainJson(value, true)
}

function plainJson(value: unknown, rename: boolean): unknown {
  if (value === null) return null
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'bigint':
      return Number(value)
    case 'object':
      break
    default:
      return undefined
  }
  const withToJson = value as { toJSON?: () => unknown }
  if (typeof withToJson.toJSON === 'function') return plainJson(withToJson.toJSON(), rename)
  if (Array.isArray(value)) return value.map((item) => plainJson(item, rename) ?? null)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const inner = plainJson((value as Record<string, unknown>)[key], rename && !USER_OWNED.has(key))
    if (inner !== undefined) out[rename ? snake(key) : key] = inner
  }
  return out
}

type UserOwnedKey = (typeof USER_OWNED_KEYS)[number]

/** `symbol_type` → `symbolType`, as camelCaseKeys renames a key. */
type CamelName<S extends string> = S extends `${infer Head}_${infer Next}${infer Rest}` ? `${Head}${Uppercase<Next>}${CamelName<Rest>}` : S

/**
 * A value after `camelCaseKeys(toSnakeCaseJson(value))`: what a presenter on the command line
 * receives, from the core in this process or from a remote tool. Keys in camelCase (a core type
 * that names its fields in snake_case is renamed too), dates as strings, user-owned maps as they
 * are.
 */
export type JsonCamelCased<T> = T extends Date
  ? string
  : T extends bigint
    ? number
    : T extends readonly (infer Item)[]
      ? JsonCamelCased<Item>[]
      : T extends object
        ? { [K in keyof T as K extends string ? CamelName<K> : K]: K extends UserOwnedKey ? T[K] : JsonCamelCased<T[K]> }
        : T

/**
 * The inverse for an answer that arrived as JSON (a remote tool's result): camelCase keys, as
 * the core returns them, with user-owned maps as they are, so one presenter reads both.
 */
export function camelCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCaseKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), USER_OWNED.has(key) ? inner : camelCaseKeys(inner)]),
  )
}
