/**
 * Time in evidence: relative dates in a text ("yesterday", "last Saturday", "two weeks ago")
 * resolved against the date of the page that holds it, so the resolved date travels with the
 * evidence. Pure functions.
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, few: 3, couple: 2 }
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 }

function shift(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000)
}

const iso = (date: Date): string => date.toISOString().slice(0, 10)
const month = (date: Date): string => date.toISOString().slice(0, 7)

/** The date a relative expression names, from the date it was written on; null when it names none. */
function resolve(phrase: string, anchor: Date): string | null {
  const p = phrase.toLowerCase().replace(/\s+/g, ' ')
  if (p === 'yesterday') return iso(shift(anchor, -1))
  if (p === 'today' || p === 'tonight') return iso(anchor)
  if (p === 'tomorrow') return iso(shift(anchor, 1))
  const ago = /^(\w+) (day|week|month|year)s? ago$/.exec(p)
  if (ago) {
    const count = NUMBERS[ago[1]!] ?? Number(ago[1])
    if (!Number.isFinite(count)) return null
    const back = shift(anchor, -count * UNIT_DAYS[ago[2]!]!)
    if (ago[2] === 'year') return back.toISOString().slice(0, 4)
    return ago[2] === 'month' ? month(back) : iso(back)
  }
  const relative = /^(last|this|next) (week|weekend|month|year|\w+day)$/.exec(p)
  if (relative) {
    const [, which, unit] = relative as unknown as [string, string, string]
    const sign = which === 'last' ? -1 : which === 'next' ? 1 : 0
    if (unit === 'year') return String(anchor.getUTCFullYear() + sign)
    if (unit === 'month') return month(new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + sign, 1)))
    // A week is named by its Monday, a weekend by its Saturday.
    const monday = shift(anchor, sign * 7 - ((anchor.getUTCDay() + 6) % 7))
    if (unit === 'week') return `week of ${iso(monday)}`
    if (unit === 'weekend') return iso(shift(monday, 5))
    const day = WEEKDAYS.indexOf(unit)
    if (day < 0) return null
    // "last Saturday": the Saturday before the anchor; "next Saturday": the one after it.
    const back = (anchor.getUTCDay() - day + 7) % 7 || 7
    const ahead = (day - anchor.getUTCDay() + 7) % 7 || 7
    return iso(shift(anchor, which === 'last' ? -back : which === 'next' ? ahead : ahead % 7))
  }
  return null
}

const RELATIVE = /\b(yesterday|today|tonight|tomorrow|(?:\w+) (?:day|week|month|year)s? ago|(?:last|this|next) (?:week|weekend|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b/gi

/**
 * `text` with each relative date followed by the date it names, from `written` (an ISO date):
 * "yesterday" written on 2023-05-08 reads "yesterday (2023-05-07)". Unchanged without a date.
 */
export function resolveRelativeDates(text: string, written: string | null): string {
  if (written === null || !/^\d{4}-\d{2}-\d{2}$/.test(written)) return text
  const anchor = new Date(`${written}T00:00:00Z`)
  return text.replace(RELATIVE, (phrase) => {
    const date = resolve(phrase, anchor)
    return date === null ? phrase : `${phrase} (${date})`
  })
}
