/**
 * Telegram Desktop's HTML export (its default: a `ChatExport_…` folder of `messages.html`,
 * `messages2.html`, … beside `css/`, `js/`, `photos/` and `files/`; a whole account's export holds
 * one such folder per chat under `chats/chat_NNN/`) → the pages its JSON export gives: one per
 * chat and month. The app splits a chat over numbered files wherever a file is full, so a month
 * often starts in one file and ends in the next: the files are read in their order as one chat.
 *
 * Each message is a `div.message` with its time in the title of its date (`15.01.2024 10:30:00
 * UTC+01:00`, the writer's local time; older versions leave out the zone), its sender's name, and
 * its text as HTML, which is kept as markdown. A message the app drew under the one before it
 * (`joined`) carries no name: it is the same sender's. The documents are parsed, never run.
 */
import { parseHTML } from 'linkedom'
import { ConvertError } from './errors.js'
import { chatSlug, dayAndClock, monthPages, type ChatMessage, type MessengerChat } from './messenger.js'
import { freeSlug } from './slug-words.js'
import { checkNesting, childWith, hasClass, markdownOf, ownText, tidy, titleOf, type DomElement } from './telegram-html-text.js'
import { convertTelegram } from './telegram.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { zipEntries } from './zip-read.js'

/** A page of messages: `messages.html` is the first, `messages2.html` the second, … */
const MESSAGES_FILE = /^(?:(.*)\/)?messages(\d*)\.html$/i

/** An account export zipped holds a folder per chat; a photo-heavy chat holds thousands of files. */
const TELEGRAM_ZIP_LIMITS = { maxEntries: 200_000, maxUncompressedBytes: 512 * 1024 * 1024, maxRatio: 200 }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** What a message carries besides its text, named in brackets as the JSON reader names it. */
function attachmentOf(wrapper: DomElement): string | undefined {
  const has = (selector: string): DomElement | null => wrapper.querySelector(selector)
  const named = (kind: string, e: DomElement | null): string => {
    const title = titleOf(e?.querySelector('.title'))
    return title === '' ? `[${kind}]` : `[${kind}: ${title}]`
  }
  if (has('.photo_wrap, .media_photo') !== null) return '[photo]'
  if (has('.sticker_wrap, .sticker, .media_sticker') !== null) return '[sticker]'
  if (has('.animated_wrap, .media_animation') !== null) return '[animation]'
  if (has('.media_voice_message') !== null) return '[voice message]'
  if (has('.media_video_message, .round_video_wrap') !== null) return '[video message]'
  if (has('.media_audio_file') !== null) return named('audio', has('.media_audio_file'))
  if (has('.video_file_wrap, .media_video') !== null) return named('video', has('.media_video'))
  const poll = has('.media_poll')
  if (poll !== null) return `[poll: ${titleOf(poll.querySelector('.question'))}]`
  if (has('.media_location, .media_live_location, .media_venue') !== null) return '[location]'
  if (has('.media_contact') !== null) return '[contact]'
  if (has('.media_call') !== null) return '[call]'
  if (has('.media_game') !== null) return named('game', has('.media_game'))
  if (has('.media_invoice') !== null) return named('invoice', has('.media_invoice'))
  const file = has('.media_file, .media')
  if (file !== null) {
    const title = titleOf(file.querySelector('.title')) || (file.getAttribute('href') ?? '').replace(/^.*\//, '')
    return title === '' ? '[file]' : `[file: ${title}]`
  }
  return undefined
}

/** A message body's content: forwarded part, attachment and text, as one paragraph. */
function contentOf(body: DomElement): string {
  const parts: string[] = []
  for (const child of Array.from(body.children)) {
    if (hasClass(child, 'forwarded')) {
      const from = ownText(childWith(child, 'from_name') ?? child)
      const forwarded = contentOf(child)
      parts.push(from === '' ? '(forwarded)' : `(forwarded from ${from})`, forwarded)
    } else if (hasClass(child, 'media_wrap')) parts.push(attachmentOf(child) ?? '')
    else if (hasClass(child, 'text')) parts.push(tidy(markdownOf(child)))
  }
  return parts.filter((p) => p.trim() !== '').join(' ')
}

/** The day and minute of a date's title (`15.01.2024 10:30:00 UTC+01:00`), as the writer's clock showed them. */
function titleDayAndClock(title: string | null): { day: string; clock: string } | undefined {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4}) (\d{1,2}):(\d\d)/.exec(title ?? '')
  return m === null ? undefined : dayAndClock(Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4]), Number(m[5]))
}

/** A date separator's day (`15 January 2024`), or undefined when it is written otherwise. */
function separatorDay(text: string): string | undefined {
  const m = /^(\d{1,2}) ([A-Za-z]{3,9}) (\d{4})$/.exec(text)
  const month = m === null ? -1 : MONTHS.indexOf(m[2]!.toLowerCase())
  return month < 0 ? undefined : dayAndClock(Number(m![3]), month + 1, Number(m![1]), 0, 0)?.day
}

/** A line of the app's own (a member joined, a photo changed); the export gives it no time. */
interface ServiceLine {
  text: string
  /** The day of the date separator above it, when it could be read. */
  day: string | undefined
}

/** The messages of one chat's pages, in order; each page is parsed when its turn comes and let go after. */
function chatMessages(documents: Iterable<DomElement>): ChatMessage[] {
  const entries: (ChatMessage | ServiceLine)[] = []
  let speaker = ''
  let day: string | undefined
  for (const document of documents) {
    for (const message of Array.from(document.querySelectorAll('div.message'))) {
      if (hasClass(message, 'service')) {
        const text = tidy(markdownOf(childWith(message, 'body') ?? message))
        // The app writes a separator before each day's first message, with an id below zero.
        const separator = separatorDay(text)
        if (separator !== undefined || /^message-\d+$/.test(message.getAttribute('id') ?? '')) day = separator ?? day
        else if (text !== '') entries.push({ text, day })
        continue
      }
      const body = childWith(message, 'body')
      if (body === undefined) continue
      const date = Array.from(body.children).find((c) => hasClass(c, 'date'))
      const at = titleDayAndClock(date?.getAttribute('title') ?? null)
      if (at === undefined) continue
      const from = childWith(body, 'from_name')
      if (from !== undefined) speaker = ownText(from)
      else if (!hasClass(message, 'joined')) speaker = ''
      entries.push({ speaker: speaker || 'Deleted Account', ...at, text: contentOf(body) })
    }
  }
  return timeServiceLines(entries)
}

/**
 * Service lines placed in time: on their separator's day, at the time of the message before them
 * on that day (they came after it), else of the one after them.
 */
function timeServiceLines(entries: readonly (ChatMessage | ServiceLine)[]): ChatMessage[] {
  const isMessage = (e: ChatMessage | ServiceLine): e is ChatMessage => 'clock' in e
  const before: (ChatMessage | undefined)[] = []
  let last: ChatMessage | undefined
  for (const e of entries) {
    if (isMessage(e)) last = e
    before.push(last)
  }
  const after: (ChatMessage | undefined)[] = new Array<ChatMessage | undefined>(entries.length)
  let next: ChatMessage | undefined
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!
    if (isMessage(e)) next = e
    after[i] = next
  }
  const messages: ChatMessage[] = []
  entries.forEach((e, i) => {
    if (isMessage(e)) {
      messages.push(e)
      return
    }
    const near = [before[i], after[i]].find((m) => m !== undefined && (e.day === undefined || m.day === e.day))
    const day = e.day ?? near?.day
    if (day !== undefined) messages.push({ speaker: '', day, clock: near?.clock ?? '00:00', text: e.text })
  })
  return messages
}

/** The pages of an export by chat: the `messages*.html` of each folder, in their numbered order. */
function chatFiles(names: Iterable<string>): Map<string, string[]> {
  const byFolder = new Map<string, { name: string; n: number }[]>()
  for (const name of names) {
    const m = MESSAGES_FILE.exec(name)
    if (m === null) continue
    const folder = m[1] ?? ''
    const list = byFolder.get(folder) ?? []
    list.push({ name, n: m[2] === '' ? 1 : Number(m[2]) })
    byFolder.set(folder, list)
  }
  return new Map([...byFolder].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([folder, files]) => [folder, files.sort((a, b) => a.n - b.n).map((f) => f.name)]))
}

/** The chat's name as its pages' header shows it. */
function headerName(document: DomElement): string {
  return titleOf(document.querySelector('.page_header .text.bold') ?? document.querySelector('.page_header .text'))
}

/** A file or folder name without its path, extension and the export's date. */
function fallbackName(path: string): string {
  const base = path
    .replace(/\/+$/, '')
    .replace(/^.*\//, '')
    .replace(/\.(zip|html)$/i, '')
  return base === '' || /^(chat|data)export/i.test(base) || /^messages\d*$/i.test(base) ? 'Telegram chat' : base
}

function isZip(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
}

const isLoneFile = (input: ConvertInput): boolean => input.files === undefined && !isZip(input.bytes) && !/\.zip$/i.test(input.name)

/** The files of the export by their path inside it, read when asked for. */
function exportFiles(input: ConvertInput): Map<string, () => Uint8Array> {
  if (input.files !== undefined) return new Map(Object.entries(input.files).map(([name, bytes]) => [name, () => bytes]))
  if (!isLoneFile(input)) return zipEntries(input.bytes, input.name, TELEGRAM_ZIP_LIMITS)
  return new Map([['messages.html', () => input.bytes]])
}

/**
 * A lone file after a chat's first (`messages2.html`, dropped into the inbox on its own) holds
 * only part of a month its neighbours hold too: its pages are named as that part, so that it
 * never writes over the month pages another file of the chat gave.
 */
function lonePart(input: ConvertInput): string {
  const n = isLoneFile(input) ? Number(MESSAGES_FILE.exec(input.name)?.[2] || 1) : 1
  return n > 1 ? `-part-${n}` : ''
}

export function convertTelegramHtml(input: ConvertInput, limits: ConvertLimits): ConvertResult<'telegram'> {
  const files = exportFiles(input)
  // A zipped export in Telegram's other format, or in both: the JSON names each chat's id.
  const json = input.files === undefined ? [...files.keys()].sort((a, b) => a.length - b.length).find((n) => /(^|\/)result\.json$/.test(n)) : undefined
  if (json !== undefined) return convertTelegram({ bytes: files.get(json)!(), name: `${input.name.replace(/\.zip$/i, '')}/${json}` }, limits)
  const byChat = chatFiles(files.keys())
  if (byChat.size === 0) throw new ConvertError('convert_unsupported', `${input.name}: not a Telegram export (no messages.html)`)
  let read = 0
  const chats: MessengerChat[] = []
  const slugs = new Set<string>()
  for (const [folder, names] of byChat) {
    let header = ''
    function* documents(): Generator<DomElement> {
      for (const name of names) {
        const bytes = files.get(name)!()
        read += bytes.byteLength
        if (read > limits.maxBytes) throw new ConvertError('convert_too_large', `${input.name}: its pages of messages exceed ${limits.maxBytes} bytes`)
        const html = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
        checkNesting(html, `${input.name}: ${name}`)
        const document = parseHTML(html).document as unknown as DomElement
        header ||= headerName(document)
        yield document
      }
    }
    const messages = chatMessages(documents())
    const name = header || fallbackName(folder === '' ? input.name : folder)
    // Two chats of one name in an account export stay two chats.
    chats.push({ name, slugPath: freeSlug(`${chatSlug(name)}${lonePart(input)}`, slugs), messages })
  }
  if (!chats.some((c) => c.messages.length > 0)) throw new ConvertError('convert_unsupported', `${input.name}: no Telegram messages in it`)
  const counts: Record<string, number> = {}
  const drafts = monthPages('telegram', chats, counts, input, limits)
  return { format: 'telegram', drafts, counts }
}
