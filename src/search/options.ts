// The language table alone: the chunking index would also load the chunkers, which search never needs.
import { languageForFenceTag } from '../chunking/languages.js'
import { UsageError } from '../errors/index.js'
import { detailGate, type Detail } from './detail.js'
import { resolveExcludes } from './excludes.js'
import { resolveSourceBoosts, type SourceBoost } from './source-boost.js'
import type { SearchOptions } from './types.js'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_OFFSET = 1000

/** The raw settings that shape every search (config.search). */
export interface SearchSettings {
  /** BRAIN_SEARCH_EXCLUDE. */
  excludeRaw: string | null
  /** BRAIN_SOURCE_BOOST. */
  sourceBoostRaw: string | null
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
  }
}
