/**
 * Logseq journal days: the file a day is written to (`journals/2024_01_15.md`) and the title
 * Logseq shows for it, which is also what links to that day say (`[[Jan 15th, 2024]]`). A graph
 * may set either in `logseq/config.edn` (`:journal/file-name-format`,
 * `:journal/page-title-format`); both use Logseq's date patterns.
 */

export interface JournalFormats {
  /** How a journal day's file is named, without `.md`. */
  fileName: string
  /** How a journal day is titled and linked. */
  title: string
}

const DEFAULT_JOURNAL_FORMATS: JournalFormats = { fileName: 'yyyy_MM_dd', title: 'MMM do, yyyy' }

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
/** The date patterns' fields, longest first so `MMMM` is not read as `MM` twice; `'…'` is literal text. */
const TOKEN = /'[^']*'|yyyy|yy|MMMM|MMM|MM|M|do|dd|d|EEEE|EEE|EE|E|./gsu
/** A format longer than any date pattern is not one. */
const MAX_FORMAT = 64

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(day: number): string {
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th')
  return `${day}${suffix}`
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** A day (in UTC) written in a Logseq date pattern. */
function formatJournalDate(date: Date, format: string): string {
  const [year, month, day, weekday] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCDay()]
  return Array.from(format.matchAll(TOKEN), ([token]) => {
    switch (token) {
      case 'yyyy':
        return String(year)
      case 'yy':
        return pad(year % 100)
      case 'MMMM':
        return MONTHS[month]!
      case 'MMM':
        return MONTHS[month]!.slice(0, 3)
      case 'MM':
        return pad(month + 1)
      case 'M':
        return String(month + 1)
      case 'do':
        return ordinal(day)
      case 'dd':
        return pad(day)
      case 'd':
        return String(day)
      case 'EEEE':
        return WEEKDAYS[weekday]!
      case 'EEE':
      case 'EE':
      case 'E':
        return WEEKDAYS[weekday]!.slice(0, 3)
      default:
        return token.startsWith("'") && token.length > 1 ? token.slice(1, -1) : token
    }
  }).join('')
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The day a journal file's name (without `.md`) stands for in a file-name pattern, or null when
 * the name does not follow it or names no real day. Only numeric fields can name a file's day.
 */
function journalDateFromFileName(name: string, format: string): Date | null {
  const fields: Array<'y' | 'm' | 'd'> = []
  let pattern = ''
  for (const [token] of format.matchAll(TOKEN)) {
    if (token === 'yyyy') ((pattern += '(\\d{4})'), fields.push('y'))
    else if (token === 'MM' || token === 'M') ((pattern += token === 'MM' ? '(\\d{2})' : '(\\d{1,2})'), fields.push('m'))
    else if (token === 'dd' || token === 'd') ((pattern += token === 'dd' ? '(\\d{2})' : '(\\d{1,2})'), fields.push('d'))
    else if (/^[A-Za-z]+$/.test(token) && token.length > 1) return null
    else pattern += escapeRegExp(token.startsWith("'") && token.length > 1 ? token.slice(1, -1) : token)
  }
  if (!['y', 'm', 'd'].every((f) => fields.filter((x) => x === f).length === 1)) return null
  const m = new RegExp(`^${pattern}$`, 'i').exec(name)
  if (!m) return null
  const value = (f: 'y' | 'm' | 'd') => Number(m[fields.indexOf(f) + 1])
  const [year, month, day] = [value('y'), value('m'), value('d')]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null
}

/** A string setting of Logseq's `config.edn`, on a line that is not a `;` comment. */
function ednString(config: string, key: string): string | undefined {
  const m = new RegExp(`^[^;\\n]*?:${escapeRegExp(key)}[ \\t]+"([^"\\n]{1,${MAX_FORMAT}})"`, 'm').exec(config)
  return m?.[1]
}

/** The journal formats a graph's `logseq/config.edn` sets, Logseq's defaults for what it leaves out. */
export function journalFormatsFromConfig(config: string): JournalFormats {
  return {
    fileName: ednString(config, 'journal/file-name-format') ?? DEFAULT_JOURNAL_FORMATS.fileName,
    title: ednString(config, 'journal/page-title-format') ?? DEFAULT_JOURNAL_FORMATS.title,
  }
}

/** `journals/<day>.md` below a graph's folder: the folder (`''` at the root, else ending in `/`) and the day's name. */
const JOURNAL_FILE = /^(?:(.*\/))?journals\/([^/]+)\.md$/i

/** The folder of the graph a journal file belongs to (`''` or ending in `/`), or null for any other file. */
export function journalGraphFolder(path: string): string | null {
  const m = JOURNAL_FILE.exec(path)
  return m ? (m[1] ?? '') : null
}

/** The title Logseq shows for a journal file, or null for any other file or a name that is no day. */
export function journalTitle(path: string, formats: JournalFormats = DEFAULT_JOURNAL_FORMATS): string | null {
  const m = JOURNAL_FILE.exec(path)
  if (!m) return null
  const date = journalDateFromFileName(m[2]!, formats.fileName)
  return date === null ? null : formatJournalDate(date, formats.title)
}
