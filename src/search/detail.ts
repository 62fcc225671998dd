import { UsageError } from '../errors/index.js'

export const DETAIL_LEVELS = ['low', 'medium', 'high'] as const
export type Detail = (typeof DETAIL_LEVELS)[number]

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
