/**
 * Discord channels exported as JSON by DiscordChatExporter (`Server - channel [id].json`) → one
 * page per channel and month. A message's time is read as the export wrote it, in the exporting
 * machine's clock; attachments and stickers are named, and what Discord says itself (a member
 * joined, a message pinned) is a line without a speaker.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import { chatSlug, monthPages, writtenDayAndClock, type ChatMessage } from './messenger.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

/** Message types that carry what someone wrote; the rest are Discord's own notices. */
const SPOKEN = new Set(['Default', 'Reply', 'ThreadStarterMessage'])

function namedList(v: unknown, key: string, label: string): string[] {
  return objects(v).map((x) => `[${label}: ${str(x[key]) ?? '?'}]`)
}

function messageOf(m: JsonObject): ChatMessage | undefined {
  const at = writtenDayAndClock(str(m.timestamp))
  if (at === undefined) return undefined
  const author = isObj(m.author) ? m.author : {}
  const speaker = str(author.nickname) ?? str(author.name) ?? 'unknown'
  const content = str(m.content) ?? ''
  const type = str(m.type) ?? 'Default'
  if (!SPOKEN.has(type)) {
    const notice = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
    return { speaker: '', ...at, text: [speaker, notice, content].filter((p) => p !== '').join(' ') }
  }
  const extras = [...namedList(m.attachments, 'fileName', 'attachment'), ...namedList(m.stickers, 'name', 'sticker')]
  const embeds = objects(m.embeds).flatMap((e) => {
    const title = str(e.title)
    const url = str(e.url)
    return title === undefined || title === '' ? [] : [url === undefined ? `[${title}]` : `[${title}](${url})`]
  })
  const text = [content, ...extras, ...embeds].filter((p) => p.trim() !== '').join('\n')
  return { speaker, ...at, text }
}

export function convertDiscord(input: ConvertInput, limits: ConvertLimits): ConvertResult<'discord'> {
  const root = parseJson(input.bytes, input.name)
  if (!isObj(root) || !isObj(root.channel) || !Array.isArray(root.messages)) {
    throw new ConvertError('convert_unsupported', `${input.name}: not a Discord channel export (no channel and messages)`)
  }
  const guild = isObj(root.guild) ? (str(root.guild.name) ?? '') : ''
  const channel = str(root.channel.name) ?? 'channel'
  const category = str(root.channel.category)
  const messages = root.messages
    .filter(isObj)
    .map(messageOf)
    .filter((m): m is ChatMessage => m !== undefined)
  const frontmatter: Record<string, unknown> = {}
  if (guild !== '') frontmatter.server = guild
  if (category !== undefined && category !== '') frontmatter.category = category
  if (str(root.channel.id) !== undefined) frontmatter.channel_id = str(root.channel.id)
  const counts: Record<string, number> = {}
  const name = guild === '' || guild === 'Direct Messages' ? channel : `${guild} / ${channel}`
  const slugPath = `${chatSlug(guild === '' ? 'direct-messages' : guild)}/${chatSlug(channel)}`
  const drafts = monthPages('discord', [{ name, slugPath, messages, frontmatter }], counts, input, limits)
  return { format: 'discord', drafts, counts }
}
