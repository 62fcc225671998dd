import { ConfigError } from '../errors/index.js'

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
  return [...merged]
    .map(([prefix, factor]) => ({ prefix, factor }))
    .sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1))
}

/** The factor of the longest prefix of `slug` in `boosts`; 1.0 when none matches. */
export function sourceFactor(slug: string, boosts: readonly SourceBoost[]): number {
  let best: SourceBoost | null = null
  for (const boost of boosts) {
    if (slug.startsWith(boost.prefix) && (best === null || boost.prefix.length > best.prefix.length)) best = boost
  }
  return best === null ? 1 : best.factor
}
