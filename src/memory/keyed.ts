/**
 * Keyed facts in a timeline: a fact recorded under a key (`- **2025-03-01** | **price:** 12 euros`)
 * supersedes the earlier fact of the same key on the same page, which stays in the timeline closed
 * with the date it stopped holding (`… 10 euros (until 2025-03-01)`). Pure functions.
 */

/** A key names one fact of a page: letters, digits, spaces, dots, dashes, underscores. */
export const KEY_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,59}$/u

const KEYED_LINE = /^\s*[-*+]\s+\*\*(\d{4}-\d{2}-\d{2})\*\*\s*\|\s*\*\*([^*]+?):\*\*\s?(.*?)(?:\s+\(until (\d{4}-\d{2}-\d{2})\))?\s*$/

interface KeyedLine {
  date: string
  key: string
  value: string
  /** Set when a later fact of the same key replaced this one. */
  until: string | null
}

function parseKeyedLine(line: string): KeyedLine | null {
  const m = KEYED_LINE.exec(line)
  return m ? { date: m[1]!, key: m[2]!.trim(), value: m[3]!, until: m[4] ?? null } : null
}

const sameKey = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase()

/** The timeline line of a keyed fact. */
export function keyedEntry(date: string, key: string, value: string): string {
  return `- **${date}** | **${key.trim()}:** ${value}`
}

/**
 * The timeline with `entry` (a keyed fact of `date`) added and the current fact of its key closed
 * at that date; unchanged when the current fact already says the same.
 */
export function supersede(timeline: string, entry: string, date: string): { timeline: string; superseded: string | null } {
  const added = parseKeyedLine(entry)!
  const lines = timeline.trim() === '' ? [] : timeline.trimEnd().split('\n')
  let superseded: string | null = null
  for (const [i, line] of lines.entries()) {
    const keyed = parseKeyedLine(line)
    if (!keyed || keyed.until !== null || !sameKey(keyed.key, added.key)) continue
    if (keyed.value.trim() === added.value.trim()) return { timeline, superseded: null }
    lines[i] = `${line.trimEnd()} (until ${date})`
    superseded = lines[i]!
  }
  return { timeline: [...lines, entry].join('\n'), superseded }
}

/** Whether a timeline line is a keyed fact a later one replaced. */
export function isSuperseded(line: string): boolean {
  return parseKeyedLine(line)?.until != null
}
