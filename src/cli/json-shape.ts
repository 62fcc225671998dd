/**
 * JSON output uses the spec's snake_case field names (content_hash, page_kind, write_through…)
 * while the TypeScript code uses camelCase. User-owned maps (front matter, job data, metadata)
 * and maps keyed by an error code (`counts`, e.g. MISSING_CLOSE) are copied as they are.
 */
const USER_OWNED = new Set(['frontmatter', 'metadata', 'data', 'counts'])

function snake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
}

export function toSnakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSnakeCaseKeys)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [snake(key), USER_OWNED.has(key) ? inner : toSnakeCaseKeys(inner)]),
  )
}
