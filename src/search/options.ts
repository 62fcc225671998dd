import { languageForFenceTag } from '../chunking/languages.js'
import { ConfigError, UsageError } from '../errors/index.js'
import { DETAIL_LEVELS, type Detail, type SearchOptions } from './types.js'

// The language table alone: the chunking index would also load the chunkers, which search never needs.

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_OFFSET = 1000

/** The raw settings that shape every search (config.search). */
export interface SearchSettings {
  /** BRAIN_SEARCH_EXCLUDE. */
  excludeRaw: string | null
  /** BRAIN_SOURCE_BOOST. */
  sourceBoostRaw: string | null
  /** BRAIN_SEARCH_GRAPH_BOOST=1: graph-aware ranking unless a call says otherwise (default off). */
  graphBoost?: boolean
}

/** Validated, normalized options: what the SQL needs and nothing else. */
export interface SearchPlan {
  limit: number
  offset: number
  detail: Detail
  snippetChars: number
  /** Longest prefix first; empty when the detail gate turns the boost off. */
  boosts: SourceBoost[]
  excludes: string[]
  language: string | null
  symbolKind: string | null
  sourceId: string | null
  pageType: string | null
  tag: string | null
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`invalid_${name}`, `${name} must be a whole number from ${min} to ${max}, not ${String(value)}.`)
  }
  return value
}

function optionalText(value: string | undefined): string | null {
  const trimmed = value?.trim()
  return trimmed ? trimmed : null
}

/** A fence tag or extension-like alias (`ts`, `py`, `golang`) becomes the canonical language id. */
function canonicalLanguage(raw: string | undefined): string | null {
  const value = optionalText(raw)?.toLowerCase() ?? null
  if (value === null) return null
  return languageForFenceTag(value) ?? value
}

export function planSearch(options: SearchOptions, settings: SearchSettings): SearchPlan {
  const gate = detailGate(options.detail)
  return {
    limit: wholeNumber('limit', options.limit, DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: wholeNumber('offset', options.offset, 0, 0, MAX_OFFSET),
    detail: gate.detail,
    snippetChars: gate.snippetChars,
    boosts: gate.sourceBoost ? resolveSourceBoosts(settings.sourceBoostRaw) : [],
    excludes: resolveExcludes({
      envRaw: settings.excludeRaw,
      exclude_slug_prefixes: options.exclude_slug_prefixes,
      include_slug_prefixes: options.include_slug_prefixes,
    }),
    language: canonicalLanguage(options.language),
    symbolKind: optionalText(options.symbolKind)?.toLowerCase() ?? null,
    sourceId: optionalText(options.sourceId),
    pageType: optionalText(options.pageType),
    tag: optionalText(options.tag),
  }
}

export interface DetailGate {
  detail: Detail
  /** False for `high`: temporal questions want the newest evidence, not the curated directories. */
  sourceBoost: boolean
  /** Snippet length in characters for this level. */
  snippetChars: number
}

const SNIPPET_CHARS: Readonly<Record<Detail, number>> = { low: 160, medium: 320, high: 800 }

/**
 * `detail` is compared after trimming and lower-casing; absent or blank means `medium`. `high`
 * turns the source boost off (hard excludes still apply) and returns longer snippets.
 */
export function detailGate(raw: string | null | undefined): DetailGate {
  const value = (raw ?? '').trim().toLowerCase()
  const detail = value === '' ? 'medium' : value
  if (!(DETAIL_LEVELS as readonly string[]).includes(detail)) {
    throw new UsageError('invalid_detail', `Unknown detail level "${raw}".`, { hint: `Use one of ${DETAIL_LEVELS.join(', ')}.` })
  }
  const level = detail as Detail
  return { detail: level, sourceBoost: level !== 'high', snippetChars: SNIPPET_CHARS[level] }
}

/** Never searched unless a caller includes them again: fixtures, archives, binaries, raw dumps. */
export const DEFAULT_HARD_EXCLUDES: readonly string[] = Object.freeze(['test/', 'archive/', 'attachments/', '.raw/'])

/**
 * Parses BRAIN_SEARCH_EXCLUDE: comma-separated slug prefixes (`private/, drafts/old-`).
 * Whitespace around entries is ignored and empty entries are skipped.
 */
export function parseExcludeList(raw: string | null | undefined): string[] {
  if (!raw) return []
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

interface ExcludeInput {
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

/** A slug prefix and the factor a page's score is multiplied by when it is the longest match. */
export interface SourceBoost {
  prefix: string
  factor: number
}

/**
 * Curated directories (own writing, distilled concepts, people) rank higher; high-volume,
 * low-signal ones (daily logs, saved posts, agent chat transcripts) rank lower.
 */
export const DEFAULT_SOURCE_BOOSTS: Readonly<Record<string, number>> = Object.freeze({
  'originals/': 1.5,
  'writing/': 1.4,
  'concepts/': 1.3,
  'people/': 1.2,
  'daily/': 0.8,
  'media/x/': 0.7,
  'agent/chat/': 0.5,
})

/** An entry is `prefix:factor`; the factor is a plain decimal number (`1`, `0.5`, `.75`, `2.`). */
const FACTOR_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/**
 * Parses BRAIN_SOURCE_BOOST: comma-separated `prefix:factor` entries, e.g.
 * `projects/:1.3, scratch/:0.2, inbox/:0`. The factor follows the last colon, so a prefix may
 * itself contain colons. Whitespace around entries, prefixes and factors is ignored. Entries
 * without a colon, with an empty prefix or with a factor that is not a decimal number are
 * skipped silently; a negative factor is a configuration error, because it would invert the
 * ranking rather than dampen it. Later entries for the same prefix win.
 */
export function parseSourceBoost(raw: string | null | undefined): Map<string, number> {
  const parsed = new Map<string, number>()
  if (!raw) return parsed
  for (const entry of raw.split(',')) {
    const colon = entry.lastIndexOf(':')
    if (colon < 0) continue
    const prefix = entry.slice(0, colon).trim()
    const factorText = entry.slice(colon + 1).trim()
    if (prefix === '' || !FACTOR_PATTERN.test(factorText)) continue
    const factor = Number(factorText)
    if (factor < 0) {
      throw new ConfigError('source_boost_negative', `BRAIN_SOURCE_BOOST gives ${prefix} the negative factor ${factorText}.`, {
        hint: 'Use a factor of 0 or more: below 1 dampens, 0 ranks the prefix last, above 1 boosts.',
      })
    }
    parsed.set(prefix, factor)
  }
  return parsed
}

/** The defaults overridden and extended by BRAIN_SOURCE_BOOST, longest prefix first. */
export function resolveSourceBoosts(raw: string | null | undefined): SourceBoost[] {
  const merged = new Map<string, number>(Object.entries(DEFAULT_SOURCE_BOOSTS))
  for (const [prefix, factor] of parseSourceBoost(raw)) merged.set(prefix, factor)
  return [...merged].map(([prefix, factor]) => ({ prefix, factor })).sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1))
}

/** The factor of the longest prefix of `slug` in `boosts`; 1.0 when none matches. */
export function sourceFactor(slug: string, boosts: readonly SourceBoost[]): number {
  let best: SourceBoost | null = null
  for (const boost of boosts) {
    if (slug.startsWith(boost.prefix) && (best === null || boost.prefix.length > best.prefix.length)) best = boost
  }
  return best === null ? 1 : best.factor
}
