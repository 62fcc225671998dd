/**
 * A Telegram `result.json` read as a stream: its messages one at a time, each with the chat it
 * belongs to, never the whole file. The file is one JSON object, either a chat (`name`, `type`,
 * `id`, `messages: [...]`) or a whole account (`chats.list` and `left_chats.list` of chats); a
 * scanner that knows only nesting, strings and keys finds the messages arrays in either shape.
 */
import { ConvertError } from './errors.js'
import { isWhitespace, ItemBuilder, type Item } from './split-item.js'

/** One message's JSON text, the chat it is in (counted from 0) and that chat's own fields. */
interface TelegramMessage {
  chat: number
  /** The chat's `name`, `type` and `id` as JSON members (`"name":"Ada","id":42`), as far as read. */
  header: Buffer
  item: Item
}

/** What a container is to the scanner: a chat, the lists of chats, a chat's messages, or else. */
type Role = 'chat' | 'chats' | 'list' | 'messages' | 'other'

interface Frame {
  object: boolean
  role: Role
  /** The key whose value comes next (objects only). */
  key: string | null
}

const HEADER_KEYS = new Set(['name', 'type', 'id'])
const QUOTE = 0x22

function roleOf(parent: Frame | undefined, object: boolean): Role {
  if (parent === undefined) return object ? 'chat' : 'other'
  if (parent.role === 'chat' && parent.key === 'messages' && !object) return 'messages'
  if (parent.role === 'chat' && (parent.key === 'chats' || parent.key === 'left_chats') && object) return 'chats'
  if (parent.role === 'chats' && parent.key === 'list' && !object) return 'list'
  if (parent.role === 'list' && object) return 'chat'
  return 'other'
}

/** Scanner state carried from one chunk to the next. */
class Scanner {
  readonly stack: Frame[] = []
  inString = false
  escaped = false
  expectKey = false
  chat = -1
  header = new Map<string, Buffer>()
  /** Bytes of the key or header value being read, and where in the current chunk they started. */
  text: Buffer[] | null = null
  textRole: 'key' | 'value' | null = null
  textStart = 0
  /** The header member whose scalar (number, literal) value is being read. */
  scalarKey: string | null = null
  /** Set while a message is read: the stack depth it started at and its bytes so far. */
  itemDepth: number | null = null
  itemStart = 0
  done = false

  constructor(
    readonly item: ItemBuilder,
    readonly name: string,
  ) {}

  headerBytes(): Buffer {
    return Buffer.from([...this.header].map(([key, value]) => `${JSON.stringify(key)}:${value.toString('utf8')}`).join(','))
  }

  endText(data: Buffer, end: number): void {
    this.text!.push(data.subarray(this.textStart, end))
    const bytes = Buffer.concat(this.text!)
    const top = this.stack.at(-1)!
    if (this.textRole === 'key') top.key = bytes.toString('utf8')
    else if (top.key !== null) this.header.set(top.key, bytes)
    this.text = null
    this.textRole = null
  }

  /** A header value that is a number or a literal ends at the first byte that cannot be in it. */
  endScalar(data: Buffer, at: number): void {
    if (this.scalarKey === null) return
    this.text!.push(data.subarray(this.textStart, at))
    this.header.set(this.scalarKey, Buffer.concat(this.text!))
    this.text = null
    this.scalarKey = null
  }

  /** Whether the value starting here is a member of a chat's header. */
  headerValue(): boolean {
    const top = this.stack.at(-1)
    return top !== undefined && top.object && top.role === 'chat' && top.key !== null && HEADER_KEYS.has(top.key) && this.itemDepth === null
  }

  open(at: number, object: boolean): void {
    const parent = this.stack.at(-1)
    if (parent?.role === 'messages' && this.itemDepth === null) {
      this.itemDepth = this.stack.length
      this.itemStart = at
    }
    const role = this.itemDepth === null ? roleOf(parent, object) : 'other'
    if (role === 'chat') {
      this.chat++
      this.header = new Map()
    }
    this.stack.push({ object, role, key: null })
    this.expectKey = object
  }

  close(data: Buffer, at: number, ready: TelegramMessage[]): void {
    this.endScalar(data, at)
    this.stack.pop()
    this.expectKey = false
    if (this.itemDepth !== null && this.stack.length === this.itemDepth) {
      this.item.add(data.subarray(this.itemStart, at + 1))
      ready.push({ chat: this.chat, header: this.headerBytes(), item: this.item.take() })
      this.itemDepth = null
    }
    if (this.stack.length === 0) this.done = true
  }

  scan(data: Buffer, ready: TelegramMessage[]): void {
    if (this.text !== null) this.textStart = 0
    if (this.itemDepth !== null) this.itemStart = 0
    for (let i = 0; i < data.length && !this.done; i++) {
      const c = data[i]!
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (c === 0x5c) this.escaped = true
        else if (c === QUOTE) {
          this.inString = false
          if (this.textRole !== null) this.endText(data, this.textRole === 'key' ? i : i + 1)
        }
        continue
      }
      if (this.stack.length === 0 && c !== 0x7b) {
        if (isWhitespace(c) || c === 0xef || c === 0xbb || c === 0xbf) continue
        throw new ConvertError('convert_unsupported', `${this.name}: not a Telegram export (not a JSON object)`)
      }
      if (c === QUOTE) {
        this.inString = true
        if (this.expectKey) this.startText(i + 1, 'key')
        else if (this.headerValue()) this.startText(i, 'value')
      } else if (c === 0x7b || c === 0x5b) this.open(i, c === 0x7b)
      else if (c === 0x7d || c === 0x5d) this.close(data, i, ready)
      else if (c === 0x2c) {
        this.endScalar(data, i)
        const top = this.stack.at(-1)!
        this.expectKey = top.object
        if (top.object) top.key = null
      } else if (c === 0x3a) this.expectKey = false
      else if (isWhitespace(c)) this.endScalar(data, i)
      else if (this.scalarKey === null && this.headerValue()) {
        this.scalarKey = this.stack.at(-1)!.key
        this.text = []
        this.textStart = i
      }
    }
    if (this.text !== null) {
      this.text.push(Buffer.from(data.subarray(this.textStart)))
    }
    if (this.itemDepth !== null) this.item.add(Buffer.from(data.subarray(this.itemStart)))
  }

  startText(at: number, role: 'key' | 'value'): void {
    this.text = []
    this.textRole = role
    this.textStart = at
  }
}

/** The messages of a Telegram export read from a stream of its bytes, in the order written. */
export async function* telegramMessages(chunks: AsyncIterable<Uint8Array>, maxItemBytes: number, name: string): AsyncGenerator<TelegramMessage> {
  const scanner = new Scanner(new ItemBuilder(maxItemBytes), name)
  for await (const chunk of chunks) {
    const ready: TelegramMessage[] = []
    scanner.scan(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), ready)
    yield* ready
    if (scanner.done) return
  }
  throw new ConvertError('convert_corrupt', `${name}: the JSON ends before it is closed`)
}

/** The month a message was written in (`2024-03`), from its `date`; '' when it has none. */
export function messageMonth(item: Buffer): string {
  try {
    const date = (JSON.parse(item.toString('utf8')) as { date?: unknown }).date
    return typeof date === 'string' ? date.slice(0, 7) : ''
  } catch {
    return ''
  }
}

/** Some messages of one chat as a Telegram chat export of their own. */
export function telegramPart(header: Buffer, items: readonly Buffer[]): Buffer {
  const pieces: Buffer[] = [Buffer.from('{'), header, Buffer.from(header.length > 0 ? ',"messages":[' : '"messages":[')]
  for (const [i, item] of items.entries()) pieces.push(...(i === 0 ? [item] : [Buffer.from(','), item]))
  pieces.push(Buffer.from(']}'))
  return Buffer.concat(pieces)
}
