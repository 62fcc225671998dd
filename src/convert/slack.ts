/**
 * Slack workspace exports (the `.zip` Slack's "Export data" gives, or the folder it unpacks to:
 * `channels.json`, `users.json` and a folder of one JSON file per day for each channel, group and
 * direct message) → one page per channel and month. Slack's markup is turned into markdown: `<@U…>` names the person,
 * `<#C…|general>` the channel, `<url|label>` a link. Times are in UTC, from each message's `ts`.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import { chatSlug, monthPages, type ChatMessage, type MessengerChat } from './messenger.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { zipEntries } from './zip-read.js'

const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined)
const DAY_FILE = /^(?:(.*)\/)?([^/]+)\/\d{4}-\d\d-\d\d\.json$/
/** A Slack export holds a file per channel per day: far more entries than an office file. */
const SLACK_ZIP_LIMITS = { maxEntries: 200_000, maxUncompressedBytes: 512 * 1024 * 1024, maxRatio: 200 }
/** Subtypes that are Slack's own notices rather than what someone wrote. */
const NOTICE = /^(channel|group)_(join|leave|topic|purpose|name|archive|unarchive)$|^pinned_item$|^tombstone$/

function jsonOf(read: (() => Uint8Array) | undefined, name: string): unknown {
  return read === undefined ? undefined : parseJson(read(), name)
}

function userName(u: JsonObject): string | undefined {
  const profile = isObj(u.profile) ? u.profile : {}
  return nonEmpty(profile.display_name) ?? nonEmpty(profile.real_name) ?? nonEmpty(u.real_name) ?? nonEmpty(u.name)
}

/** Slack's markup as markdown, entities read. */
function slackText(text: string, users: ReadonlyMap<string, string>): string {
  return text
    .replace(/<([^<>|\n]{1,2000})(?:\|([^<>\n]{0,2000}))?>/g, (_m, target: string, label: string | undefined) => {
      if (target.startsWith('@')) return `@${label ?? users.get(target.slice(1)) ?? target.slice(1)}`
      if (target.startsWith('#')) return `#${label ?? target.slice(1)}`
      if (target.startsWith('!')) return label ?? `@${target.slice(1).replace(/\^.*$/, '')}`
      if (target.startsWith('mailto:')) return label ?? target.slice(7)
      return label === undefined || label === '' || label === target ? target : `[${label}](${target})`
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

function messageOf(m: JsonObject, users: ReadonlyMap<string, string>): ChatMessage | undefined {
  const seconds = Number(str(m.ts) ?? m.ts)
  if (!Number.isFinite(seconds)) return undefined
  const iso = new Date(seconds * 1000).toISOString()
  const profile = isObj(m.user_profile) ? m.user_profile : {}
  const id = str(m.user) ?? ''
  const speaker = nonEmpty(profile.display_name) ?? nonEmpty(profile.real_name) ?? users.get(id) ?? nonEmpty(m.username) ?? (id || 'unknown')
  const files = objects(m.files).map((f) => `[file: ${str(f.name) ?? str(f.title) ?? '?'}]`)
  const text = [slackText(str(m.text) ?? '', users), ...files].filter((p) => p.trim() !== '').join('\n')
  const subtype = str(m.subtype) ?? ''
  const day = iso.slice(0, 10)
  const clock = iso.slice(11, 16)
  if (NOTICE.test(subtype)) return { speaker: '', day, clock, text }
  const thread = str(m.thread_ts)
  return { speaker, day, clock, text, inThread: thread !== undefined && thread !== str(m.ts) }
}

/** The workspace an export is of, from the name Slack gives the file (or the folder it was unpacked to). */
function workspaceName(fileName: string): string {
  const base = fileName
    .replace(/\/+$/, '')
    .replace(/^.*\//, '')
    .replace(/\.zip$/i, '')
  return base.replace(/\s+slack export\b.*$/i, '').trim() || base
}

export function convertSlack(input: ConvertInput, limits: ConvertLimits): ConvertResult<'slack'> {
  const entries = input.files === undefined ? zipEntries(input.bytes, input.name, SLACK_ZIP_LIMITS) : new Map(Object.entries(input.files).map(([name, bytes]) => [name, () => bytes]))
  const prefix = [...entries.keys()].find((n) => /(^|\/)channels\.json$/.test(n))?.replace(/channels\.json$/, '')
  if (prefix === undefined) throw new ConvertError('convert_unsupported', `${input.name}: not a Slack export (no channels.json)`)
  const users = new Map<string, string>()
  for (const u of objects(jsonOf(entries.get(`${prefix}users.json`), 'users.json'))) {
    const name = userName(u)
    if (str(u.id) !== undefined && name !== undefined) users.set(str(u.id)!, name)
  }
  // Channel folders are named by the channel, direct messages by their id. A channel's name is
  // written without its `#`, which would make it a tag of every page of the channel.
  const titles = new Map<string, string>()
  for (const dm of objects(jsonOf(entries.get(`${prefix}dms.json`), 'dms.json'))) {
    const members = Array.isArray(dm.members) ? dm.members.map((id) => users.get(String(id)) ?? String(id)) : []
    if (str(dm.id) !== undefined) titles.set(str(dm.id)!, `Direct messages: ${members.join(', ')}`)
  }
  const byFolder = new Map<string, string[]>()
  for (const name of [...entries.keys()].sort()) {
    const m = DAY_FILE.exec(name)
    if (m === null || (m[1] ?? '') !== prefix.replace(/\/$/, '')) continue
    const days = byFolder.get(m[2]!)
    if (days === undefined) byFolder.set(m[2]!, [name])
    else days.push(name)
  }
  const workspace = workspaceName(input.name)
  const chats: MessengerChat[] = []
  for (const [folder, days] of byFolder) {
    const messages = days.flatMap((day) => objects(jsonOf(entries.get(day), day))).map((m) => messageOf(m, users))
    chats.push({
      name: titles.get(folder) ?? folder,
      slugPath: `${chatSlug(workspace)}/${chatSlug(folder)}`,
      messages: messages.filter((m): m is ChatMessage => m !== undefined),
      frontmatter: { workspace },
    })
  }
  const counts: Record<string, number> = {}
  const drafts = monthPages('slack', chats, counts, input, limits)
  return { format: 'slack', drafts, counts }
}
