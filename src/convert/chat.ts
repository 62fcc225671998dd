/**
 * Chat exports and agent transcripts → one page per conversation, each message a section
 * headed by speaker and time, tool calls condensed to one line, secrets scrubbed.
 *
 * Formats read:
 * - ChatGPT `conversations.json` (array of conversations with a `mapping` tree and `current_node`).
 * - Claude.ai `conversations.json` (array of conversations with `chat_messages`).
 * - Coding-agent JSONL session logs (one event per line with `type` user/assistant and a
 *   `message` whose `content` is a string or a list of text / tool_use / tool_result blocks).
 */
import { ConvertError } from './errors.js'
import { isObj, objects, str, type JsonObject } from './json-values.js'
import { fencedCode, nestHeadings } from './render.js'
import { scrubSecrets } from './scrub.js'
import { slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'

/** The chat formats this converter tells apart. */
type ChatFormat = 'chatgpt' | 'claude' | 'agent-jsonl'

interface Message {
  speaker: string
  time?: string
  text: string
}

interface Conversation {
  id: string
  title: string
  created?: string
  messages: Message[]
}

function epochToIso(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000).toISOString() : str(v)
}

/** A shortened line, scrubbed before it is cut: a secret cut in half no longer looks like one. */
function oneLine(s: string, max = 120): string {
  const flat = scrubSecrets(s).text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** A content block list (agent logs, Claude.ai) as text with tool calls on one line each. */
function blocksText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  const parts: string[] = []
  for (const b of content) {
    if (typeof b === 'string') parts.push(b)
    else if (!isObj(b)) continue
    else if (b.type === 'text') parts.push(str(b.text) ?? '')
    else if (b.type === 'tool_use') parts.push(`> tool \`${str(b.name) ?? '?'}\`: ${oneLine(JSON.stringify(b.input ?? {}))}`)
    else if (b.type === 'tool_result') parts.push(`> tool result: ${oneLine(blocksText(b.content))}`)
  }
  return parts.filter((p) => p.length > 0).join('\n\n')
}

/**
 * A ChatGPT message's content as text: the string parts of text and multimodal messages (an
 * image or a file among them as `[image]` or `[file]`), the code the assistant ran as a fenced
 * block, and the text of the other kinds (execution output, quotes from browsing).
 */
function chatgptContentText(content: JsonObject): string {
  if (content.content_type === 'code') {
    const code = str(content.text)?.trim() ?? ''
    const language = str(content.language)?.replace(/[^\w+-]/g, '') ?? ''
    return code === '' ? '' : fencedCode(code, language === 'unknown' ? '' : language)
  }
  if (Array.isArray(content.parts)) {
    const parts = content.parts.map((p) => (typeof p === 'string' ? p : isObj(p) ? (str(p.content_type)?.includes('image') ? '[image]' : '[file]') : ''))
    return parts.join('\n\n').trim()
  }
  return (str(content.text) ?? str(content.result) ?? '').trim()
}

function chatgptConversation(c: JsonObject): Conversation {
  const mapping = isObj(c.mapping) ? c.mapping : {}
  // Follow the branch the user last saw: walk parents up from current_node.
  const chain: JsonObject[] = []
  let id = str(c.current_node)
  const seen = new Set<string>()
  while (id !== undefined && !seen.has(id) && isObj(mapping[id])) {
    seen.add(id)
    const node = mapping[id] as JsonObject
    if (isObj(node.message)) chain.push(node.message)
    id = str(node.parent)
  }
  chain.reverse()
  const messages: Message[] = []
  for (const m of chain) {
    const role = isObj(m.author) ? str(m.author.role) : undefined
    const content = isObj(m.content) ? m.content : {}
    const text = chatgptContentText(content)
    if (text === '' || role === 'system') continue
    const speaker = role === 'tool' ? 'tool' : (role ?? 'unknown')
    const asToolResult = role === 'tool' || content.content_type === 'execution_output'
    messages.push({ speaker, time: epochToIso(m.create_time), text: asToolResult ? `> tool result: ${oneLine(text)}` : text })
  }
  return { id: str(c.id) ?? str(c.conversation_id) ?? '', title: str(c.title) ?? '', created: epochToIso(c.create_time), messages }
}

function claudeConversation(c: JsonObject): Conversation {
  const msgs = objects(c.chat_messages)
  const messages = msgs
    .map((m) => ({
      speaker: str(m.sender) ?? 'unknown',
      time: str(m.created_at),
      text: (Array.isArray(m.content) && m.content.length > 0 ? blocksText(m.content) : (str(m.text) ?? '')).trim(),
    }))
    .filter((m) => m.text !== '')
  return { id: str(c.uuid) ?? '', title: str(c.name) ?? '', created: str(c.created_at), messages }
}

function agentConversation(lines: JsonObject[], name: string): Conversation {
  const messages: Message[] = []
  let id = ''
  let created: string | undefined
  for (const ev of lines) {
    if (ev.type !== 'user' && ev.type !== 'assistant') continue
    id ||= str(ev.sessionId) ?? str(ev.session_id) ?? ''
    created ??= str(ev.timestamp)
    const msg = isObj(ev.message) ? ev.message : {}
    const text = blocksText(msg.content).trim()
    if (text === '') continue
    messages.push({ speaker: str(msg.role) ?? String(ev.type), time: str(ev.timestamp), text })
  }
  const first = messages.find((m) => m.speaker === 'user')
  return { id: id || name, title: first === undefined ? name : oneLine(first.text, 80), created, messages }
}

function toDraft(format: ChatFormat, c: Conversation, index: number, counts: Record<string, number>): PageDraft {
  const title = c.title.trim() || `Conversation ${index + 1}`
  const sections = c.messages.map((m) => {
    const scrubbed = scrubSecrets(m.text)
    counts.secrets_scrubbed = (counts.secrets_scrubbed ?? 0) + scrubbed.count
    return `## ${m.speaker}${m.time === undefined ? '' : ` — ${m.time}`}\n\n${nestHeadings(scrubbed.text, 2)}`
  })
  counts.messages = (counts.messages ?? 0) + c.messages.length
  const idPart = c.id === '' ? String(index + 1) : slugWords(c.id, 12)
  const frontmatter: Record<string, unknown> = { type: 'conversation', source_format: format, messages: c.messages.length }
  if (c.id !== '') frontmatter.conversation_id = c.id
  if (c.created !== undefined) frontmatter.created = c.created
  return {
    slugHint: `chats/${format}/${slugWords(title, 60)}-${idPart}`,
    title: scrubSecrets(title).text,
    frontmatter,
    body: `# ${scrubSecrets(title).text}\n\n${sections.join('\n\n')}\n`,
    position: { index },
  }
}

function parseJsonl(text: string): JsonObject[] | undefined {
  const out: JsonObject[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const v: unknown = JSON.parse(line)
      if (!isObj(v)) return undefined
      out.push(v)
    } catch {
      return undefined
    }
  }
  return out
}

/** Which chat format the text holds, or undefined when it is none of them. */
export function detectChat(text: string): { format: ChatFormat; data: JsonObject[] } | undefined {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('[')) {
    let v: unknown
    try {
      v = JSON.parse(trimmed)
    } catch {
      return undefined
    }
    if (!Array.isArray(v)) return undefined
    const convs = v.filter(isObj)
    if (convs.length > 0 && convs.every((c) => 'mapping' in c)) return { format: 'chatgpt', data: convs }
    if (convs.length > 0 && convs.every((c) => 'chat_messages' in c)) return { format: 'claude', data: convs }
    return undefined
  }
  const lines = parseJsonl(text)
  if (lines !== undefined && lines.some((l) => (l.type === 'user' || l.type === 'assistant') && isObj(l.message))) {
    return { format: 'agent-jsonl', data: lines }
  }
  return undefined
}

export function convertChat(input: ConvertInput, limits: ConvertLimits): ConvertResult<ChatFormat> {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  const found = detectChat(text)
  if (found === undefined) throw new ConvertError('convert_unsupported', `${input.name}: not a known chat export or agent log`)
  const convs =
    found.format === 'chatgpt'
      ? found.data.map(chatgptConversation)
      : found.format === 'claude'
        ? found.data.map(claudeConversation)
        : [agentConversation(found.data, input.name.replace(/\.[^.]+$/, ''))]
  if (convs.length > limits.maxDrafts) {
    throw new ConvertError('convert_too_many_pages', `${input.name}: ${convs.length} conversations exceed ${limits.maxDrafts}`)
  }
  const counts: Record<string, number> = { conversations: convs.length }
  const first = input.firstIndex ?? 0
  const drafts = convs.map((c, i) => toDraft(found.format, c, first + i, counts))
  return { format: found.format, drafts, counts }
}
