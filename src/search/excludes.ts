/** Never searched unless a caller includes them again: fixtures, archives, binaries, raw dumps. */
export const DEFAULT_HARD_EXCLUDES: readonly string[] = Object.freeze(['test/', 'archive/', 'attachments/', '.raw/'])

/**
 * Parses BRAIN_SEARCH_EXCLUDE: comma-separated slug prefixes (`private/, drafts/old-`).
 * Whitespace around entries is ignored and empty entries are skipped.
 */
export function parseExcludeList(raw: string | null | undefined): string[] {
  if (!raw) return []
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

export interface ExcludeInput {
  /** Raw BRAIN_SEARCH_EXCLUDE. */
  envRaw?: string | null
  exclude_slug_prefixes?: readonly string[]
  include_slug_prefixes?: readonly string[]
}

/**
 * The hard-exclude set: defaults, plus BRAIN_SEARCH_EXCLUDE, plus `exclude_slug_prefixes`,
 * minus every entry that `include_slug_prefixes` covers. An include removes the entry equal to
 * it and any narrower entry under it (including `archive/` also lifts `archive/2019/`); it never
 * widens past an exclude, so including `archive/2019/` leaves `archive/` excluded. Sorted and
 * de-duplicated so that equal inputs give equal SQL parameters.
 */
export function resolveExcludes(input: ExcludeInput): string[] {
  const clean = (list: readonly string[] | undefined): string[] => (list ?? []).map((s) => s.trim()).filter((s) => s !== '')
  const includes = clean(input.include_slug_prefixes)
  const all = new Set([...DEFAULT_HARD_EXCLUDES, ...parseExcludeList(input.envRaw), ...clean(input.exclude_slug_prefixes)])
  return [...all].filter((prefix) => !includes.some((include) => prefix.startsWith(include))).sort()
}

/** True when some prefix in `excludes` starts `slug`. */
export function isExcluded(slug: string, excludes: readonly string[]): boolean {
  return excludes.some((prefix) => slug.startsWith(prefix))
}
