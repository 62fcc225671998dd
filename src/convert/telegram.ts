/**
 * Telegram Desktop exports in JSON (`result.json`: one chat, or a whole account's `chats.list`)
 * → one page per chat and month. A message's formatted text (bold, links, code) is kept as
 * markdown; photos, files, stickers and voice notes are named where they were sent; what the app
 * says itself (a member joined, a call) is a line without a speaker.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import { fencedCode } from './render.js'
import { chatSlug, monthPages, writtenDayAndClock, type ChatMessage, type MessengerChat } from './messenger.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

/** One piece of formatted text as markdown. */
function entityText(entity: unknown): string {
  if (typeof entity === 'string') return entity
  if (!isObj(entity)) return ''
  const text = str(entity.text) ?? ''
  switch (entity.type) {
    case 'bold':
      return text.trim() === '' ? text : `**${text}**`
    case 'italic':
      return text.trim() === '' ? text : `_${text}_`
    case 'code':
      return `\`${text}\``
    case 'pre':
      return `\n${fencedCode(text, str(entity.language)?.replace(/[^\w+-]/g, '') ?? '')}\n`
    case 'text_link':
      return str(entity.href) === undefined ? text : `[${text}](${str(entity.href)})`
    default:
      return text
  }
}

/** What a message carries besides its text, named in brackets. */
function attachment(m: JsonObject): string | undefined {
  const file = str(m.file_name) ?? str(m.file)?.replace(/^.*\//, '')
  if (m.photo !== undefined) return '[photo]'
  if (m.media_type === 'sticker') return `[sticker${str(m.sticker_emoji) === undefined ? '' : ` ${str(m.sticker_emoji)}`}]`
  if (m.media_type === 'voice_message') return '[voice message]'
  if (m.media_type === 'video_message') return '[video message]'
  if (m.media_type === 'animation') return '[animation]'
  if (m.media_type === 'video_file') return `[video${file === undefined ? '' : `: ${file}`}]`
  if (m.media_type === 'audio_file') return `[audio${file === undefined ? '' : `: ${file}`}]`
  if (isObj(m.poll)) return `[poll: ${str(m.poll.question) ?? ''}]`
  if (isObj(m.location_information)) return '[location]'
  if (isObj(m.contact_information)) return '[contact]'
  if (file !== undefined) return `[file: ${file}]`
  return undefined
}

function messageOf(m: JsonObject): ChatMessage | undefined {
  const at = writtenDayAndClock(str(m.date))
  if (at === undefined) return undefined
  const text = Array.isArray(m.text) ? m.text.map(entityText).join('') : entityText(m.text)
  if (m.type === 'service') {
    const actor = str(m.actor) ?? ''
    const action = (str(m.action) ?? 'service message').replace(/_/g, ' ')
    const members = Array.isArray(m.members) ? m.members.filter((x): x is string => typeof x === 'string') : []
    const said = [actor, action, members.join(', '), text].filter((p) => p !== '').join(' ')
    return { speaker: '', ...at, text: said }
  }
  if (m.type !== 'message') return undefined
  const forwarded = str(m.forwarded_from)
  const parts = [forwarded === undefined ? '' : `(forwarded from ${forwarded})`, attachment(m) ?? '', text].filter((p) => p.trim() !== '')
  return { speaker: str(m.from) ?? 'Deleted Account', ...at, text: parts.join(' ') }
}

function chatOf(c: JsonObject): MessengerChat {
  const name = str(c.name) ?? (c.type === 'saved_messages' ? 'Saved Messages' : 'Telegram chat')
  const id = typeof c.id === 'number' || typeof c.id === 'string' ? String(c.id) : ''
  const messages = objects(c.messages)
    .map(messageOf)
    .filter((m): m is ChatMessage => m !== undefined)
  const frontmatter: Record<string, unknown> = {}
  if (str(c.type) !== undefined) frontmatter.chat_type = str(c.type)
  if (id !== '') frontmatter.chat_id = id
  return { name, slugPath: id === '' ? chatSlug(name) : `${chatSlug(name)}-${chatSlug(id)}`, messages, frontmatter }
}

/** The chats of an export: the one chat of a chat export, or every chat of an account export. */
function chatsOf(root: JsonObject): JsonObject[] {
  if (Array.isArray(root.messages)) return [root]
  const lists = [root.chats, root.left_chats].filter(isObj).map((l) => objects(l.list))
  return lists.flat()
}

export function convertTelegram(input: ConvertInput, limits: ConvertLimits): ConvertResult<'telegram'> {
  const root = parseJson(input.bytes, input.name)
  const chats = isObj(root) ? chatsOf(root) : []
  if (chats.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: not a Telegram export (no chat with messages)`)
  const counts: Record<string, number> = {}
  const drafts = monthPages('telegram', chats.map(chatOf), counts, input, limits)
  return { format: 'telegram', drafts, counts }
}
