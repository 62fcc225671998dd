/**
 * The period a question names ("in January 2022", "on 8 May 2023", "May 8, 2023", "in 2023",
 * "between August 11 and August 15 2023"), as the first and last ISO day of it. A month or day
 * named without its year ("in May", "last May", "on June 3") is the most recent one at or before
 * a day the caller gives: the latest day the brain holds pages of, since a person asks of what
 * their notes have recorded. English only. Pure functions.
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
/**
 * "in May", "last May", "during early May", "the second week of November": a month without its
 * year, after a word that makes it a time ("May I …" is no month); after "and" or "to" only in
 * a range ("between May and July"), since "Tom and May" names a person.
 */
const BARE_MONTH = new RegExp(`(?<![\\p{L}\\p{N}])(in|during|last|this|past|of|since|until|through|between|from|and|to)\\s+(?:(?:early|late|mid)[-\\s]+)?${MONTH}(?![\\p{L}\\p{N}])`, 'giu')
/** The words that tie a date to the question ("in", "on", "between … and"). */
const CONNECTORS = 'in|on|of|during|between|from|and|to|by|before|after|since|until|the'
/** Two dates joined this way name the days from one to the other. */
const RANGE = /(?<![\p{L}\p{N}])(?:between|from)(?![\p{L}\p{N}])/iu
/** The connectors that join the second month of a range. */
const JOINS = /^(?:and|to)$/i

interface Day {
  year: number | null
  month: number
  day: number
}

const monthNumber = (name: string): number => MONTH_NAMES.findIndex((m) => m.startsWith(name.toLowerCase().replace(/\.$/, '').slice(0, 3))) + 1

/** The month a word names in full ("July" → 7); null for any other word. */
export function monthNamed(word: string): number | null {
  const index = MONTH_NAMES.indexOf(word.toLowerCase())
  return index < 0 ? null : index + 1
}

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

/**
 * The period `question` names, or null when it names none. A month or day written without any
 * year resolves against `latest` (an ISO day), the most recent one at or before it; without
 * `latest` it names no period.
 */
export function periodIn(question: string, latest: string | null = null): Period | null {
  const years = [...question.matchAll(YEAR_MENTION)].map((m) => Number(m[1]))
  const range = RANGE.test(question)
  const days = daysNamed(question)
  // A day without its year takes the year written elsewhere in the question ("between August 11
  // and August 15 2023"), else the year that puts the last day named at or before `latest`.
  const lastYear = years.at(-1) ?? null
  const lastDay = days.at(-1)
  const dated = days.flatMap((d) => {
    const year = d.year ?? lastYear ?? (latest === null || lastDay === undefined ? null : yearBefore(d, lastDay, latest))
    return year === null ? [] : [isoDay(year, d.month, Math.min(d.day, daysIn(year, d.month)))]
  })
  if (dated.length > 0) return range && dated.length > 1 ? span(dated) : { from: dated[0]!, to: dated[0]! }
  const months = [...question.matchAll(MONTH_MENTION)].map((m) => monthPeriod(Number(m[2]), monthNumber(m[1]!)))
  if (months.length > 0) return range && months.length > 1 ? span(months.flatMap((m) => [m.from, m.to])) : months[0]!
  if (years.length > 0) {
    const spanYears = range && years.length > 1 ? years : [years[0]!]
    return { from: `${Math.min(...spanYears)}-01-01`, to: `${Math.max(...spanYears)}-12-31` }
  }
  const bare = bareMonths(question)
  const last = bare.at(-1)
  if (latest === null || last === undefined) return null
  const resolved = bare.map((month) => monthPeriod(yearBefore({ month, day: 1 }, { month: last, day: 1 }, latest), month))
  return range && resolved.length > 1 ? span(resolved.flatMap((m) => [m.from, m.to])) : resolved[0]!
}

/** Whether `question` names a month or day without any year, which periodIn resolves only against a day given. */
export function namesUndatedPeriod(question: string): boolean {
  return periodIn(question) === null && (daysNamed(question).length > 0 || bareMonths(question).length > 0)
}

/** The months named without a year, as numbers; only a capitalised name counts ("in may" is rarer than a typo). */
function bareMonths(question: string): number[] {
  const range = RANGE.test(question)
  return [...question.matchAll(BARE_MONTH)].filter((m) => isBareMonth(m[1]!, m[2]!, range)).map((m) => monthNumber(m[2]!))
}

const isBareMonth = (connector: string, month: string, range: boolean): boolean => isCapitalised(month) && (range || !JOINS.test(connector))

const isCapitalised = (word: string): boolean => word[0] !== undefined && word[0] === word[0].toUpperCase()

/**
 * The year of a day named without one: the last day the question names falls in the most recent
 * year that puts it at or before `latest`, and an earlier-named day later in the calendar than
 * that one ("between November and February") in the year before.
 */
function yearBefore(day: Pick<Day, 'month' | 'day'>, last: Pick<Day, 'month' | 'day'>, latest: string): number {
  const [year, month, date] = latest.split('-').map(Number) as [number, number, number]
  const lastYear = last.month < month || (last.month === month && last.day <= date) ? year : year - 1
  return day.month > last.month || (day.month === last.month && day.day > last.day) ? lastYear - 1 : lastYear
}

const monthPeriod = (year: number, month: number): Period => ({ from: isoDay(year, month, 1), to: isoDay(year, month, daysIn(year, month)) })

/**
 * The question without the dates it names (and the word that joins a range to them): ranked
 * among the pages of that period, the dates say nothing, and to a model they read as a topic.
 */
export function withoutPeriod(question: string): string {
  const marked = question
    .replace(DAY_MENTION, '\u0000')
    .replace(MONTH_MENTION, '\u0000')
    .replace(YEAR_MENTION, '\u0000')
    .replace(BARE_MONTH, (match: string, connector: string, month: string) => (isBareMonth(connector, month, RANGE.test(question)) ? '\u0000' : match))
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
