/**
 * What recall says about a page in a few words: its summary, then its newest dated timeline
 * entries and the decisions its text records. Pure: page text in, one line out.
 */

import { isSuperseded } from './keyed.js'

/** A timeline line that opens with a date, in any of the forms notes use (`- **2025-04-14** | …`, `### 2025-04-14 — …`). */
const DATED_LINE = /^\s*(?:[-*+]\s+|#{1,6}\s+)?(?:\*\*|__|\[\[)?(\d{4}-\d{2}-\d{2})(?:\*\*|__|\]\])?\s*(?:[|:–—-]\s*)?(.*)$/
const DECISION = /\b(?:decided|decision|agreed|committed|chose|will not|won't)\b/i
const SUMMARY_CHARS = 280
const ENTRY_CHARS = 240

interface ExcerptSource {
  summary: string | null
  compiledTruth: string
  timeline: string
}

interface TimelineEntry {
  date: string
  text: string
}

/** Markdown reduced to its words on one line: no headings, emphasis, links or code fences. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[\[([^\]|]*)\|?([^\]]*)\]\]/g, (_m, target: string, label: string) => label || target)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function clip(text: string, chars: number): string {
  if (text.length <= chars) return text
  const cut = text.slice(0, chars)
  const space = cut.lastIndexOf(' ')
  return `${space > chars / 2 ? cut.slice(0, space) : cut}…`
}

/** The first sentences of a text, up to `chars`. */
function firstSentences(text: string, chars: number): string {
  const sentences = text.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? []
  let out = ''
  for (const sentence of sentences) {
    const next = `${out} ${sentence.trim()}`.trim()
    if (out !== '' && next.length > chars) break
    out = next
  }
  return clip(out, chars)
}

/** Dated entries of a timeline, newest first; of one day, the one written last first. */
function timelineEntries(timeline: string): TimelineEntry[] {
  const entries: Array<TimelineEntry & { at: number }> = []
  timeline.split('\n').forEach((line, at) => {
    const m = DATED_LINE.exec(line)
    // A fact a later one of the same key replaced is history, not what holds now.
    if (!m || isSuperseded(line)) return
    const text = plainText(m[2] ?? '')
    if (text !== '') entries.push({ date: m[1]!, text, at })
  })
  entries.sort((a, b) => (a.date === b.date ? b.at - a.at : a.date < b.date ? 1 : -1))
  return entries.map(({ date, text }) => ({ date, text }))
}

/** Sentences of the page's own text that record a decision. */
function decisions(compiledTruth: string, limit: number): string[] {
  const sentences = plainText(compiledTruth).match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? []
  return sentences
    .map((s) => s.trim())
    .filter((s) => DECISION.test(s))
    .slice(0, limit)
}

/**
 * The excerpt of a page: its summary (front matter `summary`, or its first sentences), the
 * newest timeline entries, and a decision from its text when the timeline has none.
 */
export function pageExcerpt(page: ExcerptSource, entryCount = 2): string {
  const summary = page.summary?.trim() ? clip(plainText(page.summary), SUMMARY_CHARS) : firstSentences(plainText(page.compiledTruth), SUMMARY_CHARS)
  const parts = summary ? [summary] : []
  const entries = timelineEntries(page.timeline).slice(0, entryCount)
  for (const entry of entries) parts.push(`${entry.date}: ${clip(entry.text, ENTRY_CHARS)}`)
  if (entries.length === 0) for (const decision of decisions(page.compiledTruth, 1)) if (!summary.includes(decision)) parts.push(clip(decision, ENTRY_CHARS))
  return parts.join(' · ')
}
