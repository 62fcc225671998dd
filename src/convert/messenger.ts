/**
 * Messenger chats (WhatsApp, Telegram, Slack, Discord) as pages: one page per chat and month,
 * a section per day, each message one paragraph led by its speaker and time. A chat of years
 * is thousands of short messages, so a page per message would bury search in fragments and a
 * page per chat would outgrow any reader; a month is what people scroll back through.
 */
import { ConvertError } from './errors.js'
import { nestHeadings } from './render.js'
import { scrubSecrets } from './scrub.js'
import { slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, PageDraft } from './types.js'

export interface ChatMessage {
  /** Who wrote it as the export names them; empty for what the app itself says (joins, calls). */
  speaker: string
  /** The day and time as the export writes them (`2024-01-15`, `21:05`), in the export's own clock. */
  day: string
  clock: string
  text: string
  /** A reply inside a thread (Slack). */
  inThread?: boolean
}

export interface MessengerChat {
  name: string
  /** The chat's slug below `chats/<format>/`, stable across re-exports (a folder-like path). */
  slugPath: string
  messages: ChatMessage[]
  /** What the front matter of each of its pages also says (`workspace`, `chat_type`). */
  frontmatter?: Record<string, unknown>
}

const DAY = /^\d{4}-\d\d-\d\d$/

/** A speaker's name as text, never as markup: `*`, `_`, `[` and the like are escaped. */
function plainName(name: string): string {
  return name.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`)
}

function messageParagraph(m: ChatMessage): { text: string; secrets: number } {
  const scrubbed = scrubSecrets(m.text.trim())
  const nested = nestHeadings(scrubbed.text, 2)
  // A code block that opens the message starts on a line of its own, or it is no code block.
  const body = /^(`{3,}|~{3,})/.test(nested) ? `\n${nested}` : ` ${nested}`
  if (m.speaker === '') return { text: `*${m.clock}* ·${body}`, secrets: scrubbed.count }
  const thread = m.inThread === true ? ', in a thread' : ''
  return { text: `**${plainName(m.speaker)}**, ${m.clock}${thread}:${body}`, secrets: scrubbed.count }
}

/** Two-digit pieces of a date and time, checked; undefined when they name no real moment. */
export function dayAndClock(year: number, month: number, day: number, hour: number, minute: number): { day: string; clock: string } | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined
  const two = (n: number): string => String(n).padStart(2, '0')
  return { day: `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`, clock: `${two(hour)}:${two(minute)}` }
}

/** The day and minute of a local ISO time as the export wrote it (`2024-01-15T21:05:33…`), zone ignored. */
export function writtenDayAndClock(time: string | undefined): { day: string; clock: string } | undefined {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(time ?? '')
  return m === null ? undefined : { day: m[1]!, clock: m[2]! }
}

/**
 * The pages of some chats: for each chat, one draft per month that holds a message, messages in
 * the order the export gives them. Counts go into `counts` (messages, secrets scrubbed). A file
 * of more chat months than `limits.maxDrafts` is refused.
 */
export function monthPages(format: string, chats: readonly MessengerChat[], counts: Record<string, number>, input: Pick<ConvertInput, 'name'>, limits: Pick<ConvertLimits, 'maxDrafts'>): PageDraft[] {
  const drafts: PageDraft[] = []
  counts.conversations = (counts.conversations ?? 0) + chats.length
  for (const chat of chats) {
    const months = new Map<string, ChatMessage[]>()
    for (const m of chat.messages) {
      if (!DAY.test(m.day) || m.text.trim() === '') continue
      const month = m.day.slice(0, 7)
      const list = months.get(month)
      if (list === undefined) months.set(month, [m])
      else list.push(m)
    }
    const name = scrubSecrets(chat.name.trim() || 'Chat').text
    for (const [month, messages] of months) {
      const sections: string[] = []
      let day = ''
      const speakers = new Set<string>()
      for (const m of messages) {
        if (m.day !== day) {
          day = m.day
          sections.push(`## ${day}`)
        }
        const paragraph = messageParagraph(m)
        counts.secrets_scrubbed = (counts.secrets_scrubbed ?? 0) + paragraph.secrets
        sections.push(paragraph.text)
        if (m.speaker !== '') speakers.add(m.speaker)
      }
      counts.messages = (counts.messages ?? 0) + messages.length
      const title = `${name} — ${month}`
      const first = messages[0]!
      drafts.push({
        slugHint: `chats/${format}/${chat.slugPath}/${month}`,
        title,
        frontmatter: {
          type: 'conversation',
          source_format: format,
          chat: name,
          ...chat.frontmatter,
          month,
          messages: messages.length,
          participants: [...speakers].map((s) => scrubSecrets(s).text),
          created: `${first.day} ${first.clock}`,
        },
        body: `# ${title}\n\n${sections.join('\n\n')}\n`,
        position: { index: drafts.length },
      })
    }
  }
  if (drafts.length > limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: ${drafts.length} chat months exceed ${limits.maxDrafts}`)
  return drafts
}

/** A name as one slug segment, at most 60 characters. */
export function chatSlug(name: string): string {
  return slugWords(name, 60)
}
