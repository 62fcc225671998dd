/**
 * Large exports read in parts: a mailbox split at its `From ` lines, a chat export's JSON array
 * split between its conversations, each read from a stream of chunks and never held whole. A
 * part is a small export of the same format (an mbox of some messages, a JSON array of some
 * conversations) that the format's converter reads as it is, so the limits of one conversion
 * bound a part, not the archive.
 */
import { ConvertError } from './errors.js'
import { converterFor } from './detect.js'
import { isWhitespace, ItemBuilder, type Item } from './split-item.js'
import { messageMonth, telegramMessages, telegramPart } from './split-telegram.js'

/** How an export is cut: at mbox message starts, or between the elements of a JSON array. */
export type SplitKind = 'mbox' | 'json-array' | 'telegram'

export interface SplitOptions {
  /** A part ends before the item that would take it past this many bytes. */
  partBytes: number
  /** A part holds at most this many items. */
  partItems: number
  /** An item larger than this is not held: it is reported as too large and the rest go on. */
  maxItemBytes: number
}

/** Some consecutive items of an export, or one item too large to hold. */
export type ExportPart =
  | {
      kind: SplitKind
      firstIndex: number
      items: Buffer[]
      /** A Telegram part's chat: its `name`, `type` and `id` as JSON members. */
      header?: Buffer
    }
  | { kind: SplitKind; firstIndex: number; tooLarge: number }

const FROM = Buffer.from('From ')

/** Whether a file of this name and first bytes can be read in parts, and how. */
export function splitKindFor(name: string, head: Uint8Array): SplitKind | null {
  const kind = converterFor(name, undefined, head)
  if (kind === 'mbox') return 'mbox'
  if (kind === 'telegram') return 'telegram'
  if (kind !== 'chat') return null
  const first = head.findIndex((c) => !isWhitespace(c) && c !== 0xef && c !== 0xbb && c !== 0xbf)
  return first >= 0 && head[first] === 0x5b ? 'json-array' : null
}

/** A part's items as one file of its format. */
export function partBytes(kind: SplitKind, items: readonly Buffer[], header: Buffer = Buffer.alloc(0)): Buffer {
  if (kind === 'mbox') return Buffer.concat(items)
  if (kind === 'telegram') return telegramPart(header, items)
  const pieces: Buffer[] = [Buffer.from('[')]
  for (const [i, item] of items.entries()) pieces.push(...(i === 0 ? [item] : [Buffer.from(','), item]))
  pieces.push(Buffer.from(']'))
  return Buffer.concat(pieces)
}

/** The messages of an mbox stream, each with its `From ` line; text before the first is not a message. */
async function* mboxMessages(chunks: AsyncIterable<Uint8Array>, maxItemBytes: number): AsyncGenerator<Item> {
  const message = new ItemBuilder(maxItemBytes)
  let started = false
  let carry: Buffer | null = null
  // The stream's next byte continues a line too long to hold (so it starts no message).
  let midLine = false
  const isFrom = (data: Buffer, at: number): boolean => (at > 0 || !midLine) && data.length - at >= FROM.length && data.compare(FROM, 0, FROM.length, at, at + FROM.length) === 0
  const startAt = (data: Buffer, at: number, ready: Item[]): void => {
    if (!isFrom(data, at)) return
    if (started) ready.push(message.take())
    started = true
  }
  for await (const chunk of chunks) {
    const data: Buffer = carry === null ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([carry, chunk])
    const ready: Item[] = []
    let lineStart = 0
    let pieceStart = 0
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, lineStart)) {
      if (isFrom(data, lineStart)) {
        if (started) message.add(data.subarray(pieceStart, lineStart))
        startAt(data, lineStart, ready)
        pieceStart = lineStart
      }
      lineStart = nl + 1
    }
    if (started) message.add(data.subarray(pieceStart, lineStart))
    carry = lineStart < data.length ? data.subarray(lineStart) : null
    midLine &&= lineStart === 0
    // A line longer than an item may be cannot be held whole either; only its start matters.
    if (carry !== null && carry.length > maxItemBytes) {
      startAt(carry, 0, ready)
      if (started) message.add(Buffer.from(carry))
      carry = null
      midLine = true
    }
    yield* ready
  }
  if (carry !== null) {
    const ready: Item[] = []
    startAt(carry, 0, ready)
    yield* ready
    if (started) message.add(carry)
  }
  if (started && !message.empty) yield message.take()
}

/** The elements of a stream holding one JSON array, each as its own JSON text. */
async function* jsonArrayElements(chunks: AsyncIterable<Uint8Array>, maxItemBytes: number, name: string): AsyncGenerator<Item> {
  const element = new ItemBuilder(maxItemBytes)
  let depth = 0
  let opened = false
  let closed = false
  let inString = false
  let escaped = false
  let inElement = false
  for await (const chunk of chunks) {
    const data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const ready: Item[] = []
    let start = 0
    const end = (at: number): void => {
      element.add(data.subarray(start, at))
      ready.push(element.take())
      inElement = false
    }
    for (let i = 0; i < data.length && !closed; i++) {
      const c = data[i]!
      if (inString) {
        if (escaped) escaped = false
        else if (c === 0x5c) escaped = true
        else if (c === 0x22) inString = false
        continue
      }
      if (!opened) {
        if (c === 0x5b) opened = true
        else if (!isWhitespace(c) && c !== 0xef && c !== 0xbb && c !== 0xbf) throw new ConvertError('convert_unsupported', `${name}: not a JSON array`)
        if (opened) depth = 1
        continue
      }
      if (depth === 1 && !inElement) {
        if (isWhitespace(c) || c === 0x2c) continue
        if (c === 0x5d) {
          closed = true
          continue
        }
        inElement = true
        start = i
      }
      if (c === 0x22) inString = true
      else if (c === 0x7b || c === 0x5b) depth++
      else if (c === 0x7d || c === 0x5d) {
        depth--
        if (depth === 1) end(i + 1)
        else if (depth === 0) {
          end(i)
          closed = true
        }
      } else if (c === 0x2c && depth === 1) end(i)
    }
    if (inElement) element.add(Buffer.from(data.subarray(start)))
    yield* ready
  }
  if (!closed) throw new ConvertError('convert_corrupt', `${name}: the JSON array ends before it is closed`)
}

/**
 * Reads an export from a stream of its bytes in parts of whole items (messages, conversations),
 * each at most `partItems` items and, unless one item alone is larger, `partBytes` bytes.
 */
export async function* splitExport(kind: SplitKind, chunks: AsyncIterable<Uint8Array>, name: string, options: SplitOptions): AsyncGenerator<ExportPart> {
  if (kind === 'telegram') {
    yield* telegramParts(chunks, name, options)
    return
  }
  const items = kind === 'mbox' ? mboxMessages(chunks, options.maxItemBytes) : jsonArrayElements(chunks, options.maxItemBytes, name)
  let held: Buffer[] = []
  let bytes = 0
  let index = 0
  let firstIndex = 0
  for await (const item of items) {
    const tooLarge = !Buffer.isBuffer(item)
    if (held.length > 0 && (tooLarge || held.length >= options.partItems || bytes + item.length > options.partBytes)) {
      yield { kind, firstIndex, items: held }
      held = []
      bytes = 0
      firstIndex = index
    }
    if (tooLarge) yield { kind, firstIndex: index, tooLarge: item.tooLarge }
    else {
      held.push(item)
      bytes += item.length
    }
    index++
    if (tooLarge) firstIndex = index
  }
  if (held.length > 0) yield { kind, firstIndex, items: held }
}

/**
 * A Telegram export's parts: messages of one chat, cut only where a month ends, because a chat's
 * month is one page and two parts holding the same month would each write it. A month larger
 * than a part is one part; past the converter's limits it fails on its own and the rest go on.
 */
async function* telegramParts(chunks: AsyncIterable<Uint8Array>, name: string, options: SplitOptions): AsyncGenerator<ExportPart> {
  let held: Buffer[] = []
  let header: Buffer = Buffer.alloc(0)
  let bytes = 0
  let index = 0
  let firstIndex = 0
  let chat = -1
  let month = ''
  for await (const message of telegramMessages(chunks, options.maxItemBytes, name)) {
    const { item } = message
    const tooLarge = !Buffer.isBuffer(item)
    const itemMonth = tooLarge ? month : messageMonth(item)
    const full = held.length >= options.partItems || bytes + (tooLarge ? 0 : item.length) > options.partBytes
    if (held.length > 0 && (message.chat !== chat || (full && itemMonth !== month))) {
      yield { kind: 'telegram', firstIndex, items: held, header }
      held = []
      bytes = 0
      firstIndex = index
    }
    chat = message.chat
    header = message.header
    month = itemMonth
    if (tooLarge) yield { kind: 'telegram', firstIndex: index, tooLarge: item.tooLarge }
    else {
      if (held.length === 0) firstIndex = index
      held.push(item)
      bytes += item.length
    }
    index++
  }
  if (held.length > 0) yield { kind: 'telegram', firstIndex, items: held, header }
}
