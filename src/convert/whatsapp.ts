/**
 * WhatsApp chat exports ("Export chat": `WhatsApp Chat with Ana.txt` from Android, `_chat.txt`
 * from an iPhone, or the `.zip` that holds either beside the media) → one page per month.
 *
 * Each message starts a line with the date and time in the phone's own format: Android writes
 * `31/12/2023, 21:15 - Ana: text`, an iPhone `[31/12/2023, 21:15:03] Ana: text`, and the order of
 * day and month, the separator, the year's length and a 12-hour clock all follow the phone's
 * locale. The order is decided once for the whole file: a first number above 12 is a day, a
 * second above 12 makes the first a month, and with neither, a 12-hour clock means a US phone.
 * Lines without a date continue the message above. A text that holds no message at all is kept
 * as one page of text, so a note named like an export loses nothing.
 */
import { ConvertError } from './errors.js'
import { chatSlug, dayAndClock, monthPages, type ChatMessage } from './messenger.js'
import { convertText } from './text.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { zipEntries } from './zip-read.js'

const DATE = String.raw`(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})`
const TIME = String.raw`(\d{1,2})[:.](\d\d)(?:[:.]\d\d)?(?: ?([AaPp])\.? ?[Mm]\.?)?`
const IPHONE_LINE = new RegExp(String.raw`^\[${DATE},? ${TIME}\] (.*)$`)
const ANDROID_LINE = new RegExp(String.raw`^${DATE},? ${TIME} [-–] (.*)$`)
/** Direction marks and the narrow spaces phones put before AM/PM. */
const INVISIBLE = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g
const ODD_SPACE = /[\u00a0\u202f]/g
/** What the app says in its own voice has no `Name: ` before it; a name is short. */
const MAX_NAME = 80

interface StartLine {
  index: number
  a: number
  b: number
  c: number
  aDigits: number
  hour: number
  minute: number
  meridiem: string | undefined
  rest: string
}

function startLine(line: string, index: number): StartLine | undefined {
  const m = IPHONE_LINE.exec(line) ?? ANDROID_LINE.exec(line)
  if (m === null) return undefined
  return {
    index,
    a: Number(m[1]),
    b: Number(m[3]),
    c: Number(m[4]),
    aDigits: m[1]!.length,
    hour: Number(m[5]),
    minute: Number(m[6]),
    meridiem: m[7]?.toLowerCase(),
    rest: m[8]!,
  }
}

type DateOrder = 'ymd' | 'dmy' | 'mdy'

function dateOrder(starts: readonly StartLine[]): DateOrder {
  if (starts.every((s) => s.aDigits === 4)) return 'ymd'
  if (starts.some((s) => s.a > 12)) return 'dmy'
  if (starts.some((s) => s.b > 12)) return 'mdy'
  return starts.some((s) => s.meridiem !== undefined) ? 'mdy' : 'dmy'
}

function when(s: StartLine, order: DateOrder): { day: string; clock: string } | undefined {
  const [year, month, day] = order === 'ymd' ? [s.a, s.b, s.c] : order === 'dmy' ? [s.c, s.b, s.a] : [s.c, s.a, s.b]
  const fullYear = year < 100 ? 2000 + year : year
  let hour = s.hour
  if (s.meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (s.meridiem === 'p' ? 12 : 0)
  }
  return dayAndClock(fullYear, month, day, hour, s.minute)
}

/** The messages of an export's text, or none when no line starts like a message. */
function whatsappMessages(text: string): ChatMessage[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const cleaned = lines.map((l) => l.replace(INVISIBLE, '').replace(ODD_SPACE, ' '))
  const starts = cleaned.map(startLine).filter((s): s is StartLine => s !== undefined)
  if (starts.length === 0) return []
  const order = dateOrder(starts)
  const messages: ChatMessage[] = []
  let current: ChatMessage | undefined
  let next = 0
  for (let i = 0; i < lines.length; i++) {
    const start = starts[next]?.index === i ? starts[next++] : undefined
    const at = start === undefined ? undefined : when(start, order)
    if (start === undefined || at === undefined) {
      if (current !== undefined) current.text += `\n${lines[i]!.replace(INVISIBLE, '')}`
      continue
    }
    const colon = start.rest.indexOf(': ')
    const spoken = colon > 0 && colon <= MAX_NAME
    current = { speaker: spoken ? start.rest.slice(0, colon).trim() : '', ...at, text: spoken ? start.rest.slice(colon + 2) : start.rest }
    messages.push(current)
  }
  return messages
}

/** Who the chat is with, from the export's name in any of the app's languages. */
function whatsappChatName(fileName: string): string {
  const parts = fileName.split('/')
  let base = parts.pop()!.replace(/\.(txt|zip)$/i, '')
  if (base === '_chat' || base === '') base = parts.pop()?.replace(/\.zip$/i, '') ?? 'WhatsApp'
  const name = base
    .replace(/^.*?whats\s?app(?:[\s-]*chat)?\s*/i, '')
    .replace(/^(?:with|mit|con|avec|com|met|med|z|ze|с|與|と)\s+/i, '')
    .replace(/^[-–:]\s*/, '')
    .trim()
  return name === '' ? base : name
}

/** The chat text inside a zip export: `_chat.txt`, else the one `.txt` that is not media. */
function textOfZip(bytes: Uint8Array, name: string): Uint8Array {
  const entries = zipEntries(bytes, name)
  const names = [...entries.keys()].filter((n) => /\.txt$/i.test(n))
  const chosen = names.find((n) => /(^|\/)_chat\.txt$/i.test(n)) ?? (names.length === 1 ? names[0] : undefined)
  if (chosen === undefined) throw new ConvertError('convert_unsupported', `${name}: no WhatsApp chat text in the archive`)
  return entries.get(chosen)!()
}

export function convertWhatsapp(input: ConvertInput, limits: ConvertLimits): ConvertResult<'whatsapp' | 'text'> {
  const bytes = /\.zip$/i.test(input.name) ? textOfZip(input.bytes, input.name) : input.bytes
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  const messages = whatsappMessages(text)
  if (messages.length === 0) {
    if (/\.zip$/i.test(input.name)) throw new ConvertError('convert_unsupported', `${input.name}: the archive's text holds no WhatsApp messages`)
    return convertText({ ...input, bytes }, limits)
  }
  const name = whatsappChatName(input.name)
  const counts: Record<string, number> = {}
  const drafts = monthPages('whatsapp', [{ name, slugPath: chatSlug(name), messages }], counts, input, limits)
  return { format: 'whatsapp', drafts, counts }
}
