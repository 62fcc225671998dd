/**
 * The period a question names ("in January 2022", "on 8 May 2023", "May 8, 2023", "in 2023",
 * "between August 11 and August 15 2023"), as the first and last ISO day of it. English only.
 * Pure functions.
 */

import type { PeriodBounds as Period } from '../search/index.js'

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
// Longest spelling first, so "September" is not read as "Sep" followed by "tember".
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?'
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?'
const YEAR = '((?:19|20)\\d{2})'

/** "8 May, 2023", "8th of May", "May 8, 2023", "December 1,2023": a day, its year when written. */
const DAY_MENTION = new RegExp(`(?<![\\p{L}\\p{N}])(?:${DAY}(?:\\s+of)?\\s+${MONTH}|${MONTH}\\s+${DAY}(?!\\d))(?:,?\\s*${YEAR}(?!\\d))?`, 'giu')
/** "January 2022", "July, 2023". */
const MONTH_MENTION = new RegExp(`(?<![\\p{L}\\p{N}])${MONTH},?\\s+${YEAR}(?!\\d)`, 'giu')
const YEAR_MENTION = new RegExp(`(?<![\\p{L}\\p{N}])${YEAR}(?![\\p{L}\\p{N}])`, 'gu')
/** The words that tie a date to the question ("in", "on", "between … and"). */
const CONNECTORS = 'in|on|of|during|between|from|and|to|by|before|after|since|until|the'
/** Two dates joined this way name the days from one to the other. */
const RANGE = /(?<![\p{L}\p{N}])(?:between|from)(?![\p{L}\p{N}])/iu

interface Day {
  year: number | null
  month: number
  day: number
}

const monthNumber = (name: string): number => MONTH_NAMES.findIndex((m) => m.startsWith(name.toLowerCase().replace(/\.$/, '').slice(0, 3))) + 1

const pad = (n: number): string => String(n).padStart(2, '0')
const isoDay = (year: number, month: number, day: number): string => `${year}-${pad(month)}-${pad(day)}`
const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

function daysNamed(question: string): Day[] {
  const days: Day[] = []
  for (const m of question.matchAll(DAY_MENTION)) {
    const [, dayFirst, monthSecond, monthFirst, daySecond, year] = m
    const month = monthNumber((monthSecond ?? monthFirst)!)
    const day = Number(dayFirst ?? daySecond)
    const known = year === undefined ? null : Number(year)
    if (day < 1 || day > daysIn(known ?? 2000, month)) continue
    days.push({ year: known, month, day })
  }
  return days
}

/** The period `question` names, or null when it names none (or a day without any year). */
export function periodIn(question: string): Period | null {
  const years = [...question.matchAll(YEAR_MENTION)].map((m) => Number(m[1]))
  const range = RANGE.test(question)
  const days = daysNamed(question)
  // A day without its year takes the year written elsewhere in the question ("between August 11
  // and August 15 2023").
  const lastYear = years.at(-1) ?? null
  const dated = days.flatMap((d) => {
    const year = d.year ?? lastYear
    return year === null ? [] : [isoDay(year, d.month, d.day)]
  })
  if (dated.length > 0) return range && dated.length > 1 ? span(dated) : { from: dated[0]!, to: dated[0]! }
  const months = [...question.matchAll(MONTH_MENTION)].map((m) => {
    const year = Number(m[2])
    const month = monthNumber(m[1]!)
    return { from: isoDay(year, month, 1), to: isoDay(year, month, daysIn(year, month)) }
  })
  if (months.length > 0) return range && months.length > 1 ? span(months.flatMap((m) => [m.from, m.to])) : months[0]!
  if (years.length === 0) return null
  const spanYears = range && years.length > 1 ? years : [years[0]!]
  return { from: `${Math.min(...spanYears)}-01-01`, to: `${Math.max(...spanYears)}-12-31` }
}

/**
 * The question without the dates it names (and the word that joins a range to them): ranked
 * among the pages of that period, the dates say nothing, and to a model they read as a topic.
 */
export function withoutPeriod(question: string): string {
  const marked = question.replace(DAY_MENTION, '\u0000').replace(MONTH_MENTION, '\u0000').replace(YEAR_MENTION, '\u0000')
  return marked
    .replace(new RegExp(`(?:(?<![\\p{L}\\p{N}])(?:${CONNECTORS})\\s+)+\\u0000`, 'giu'), ' ')
    .replace(/\u0000/g, ' ')
    .replace(/\s+([,.?!])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The first to the last of some ISO days. */
function span(days: readonly string[]): Period {
  const sorted = [...days].sort()
  return { from: sorted[0]!, to: sorted.at(-1)! }
}
