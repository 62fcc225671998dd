import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** Longest protocol line accepted; a longer one is answered with an error and skipped. */
const MAX_STDIO_LINE_BYTES = 16 * 1024 * 1024

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

interface LineTransportOptions {
  /** Validates one parsed message (the SDK's JSON-RPC schema). */
  isMessage: (value: unknown) => value is JSONRPCMessage
  maxLineBytes?: number
}

/**
 * Newline-delimited JSON-RPC over a pair of streams. Unlike a bare reader it answers a line that
 * is not JSON, not JSON-RPC or too long with a JSON-RPC error (id null) and keeps going, so one
 * bad message never ends the session. The streams are the command's own, never process.stdio.
 */
export class LineTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private chunks: Buffer[] = []
  private buffered = 0
  private discarding = false
  private closed = false
  private inputEnded = false
  /** Requests read but not answered yet: the session ends only after they are answered. */
  private readonly unanswered = new Set<string | number>()
  private readonly maxLineBytes: number

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions,
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData)
    this.input.once('end', this.onEnd)
    this.input.once('close', this.onEnd)
    this.input.on('error', this.onInputError)
    // Input that was already closed (a client gone before the session began) emits nothing more.
    if (this.input.destroyed || this.input.readableEnded) queueMicrotask(this.onEnd)
  }

  private readonly onInputError = (error: Error): void => this.onerror?.(error)
  private readonly onEnd = (): void => {
    this.inputEnded = true
    if (this.unanswered.size === 0) void this.close()
  }

  private readonly onData = (data: Buffer | string): void => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data
    let newline = chunk.indexOf(0x0a)
    while (newline !== -1) {
      this.pushPart(chunk.subarray(0, newline))
      this.finishLine()
      chunk = chunk.subarray(newline + 1)
      newline = chunk.indexOf(0x0a)
    }
    this.pushPart(chunk)
  }

  private pushPart(part: Buffer): void {
    if (this.discarding || part.length === 0) return
    this.buffered += part.length
    if (this.buffered > this.maxLineBytes) {
      this.chunks = []
      this.buffered = 0
      this.discarding = true
      return
    }
    this.chunks.push(part)
  }

  private finishLine(): void {
    if (this.discarding) {
      this.discarding = false
      this.reject(INVALID_REQUEST, `Message longer than ${this.maxLineBytes} bytes`)
      return
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '')
    this.chunks = []
    this.buffered = 0
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      this.reject(PARSE_ERROR, 'Parse error: not valid JSON')
      return
    }
    if (!this.options.isMessage(value)) {
      this.reject(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message')
      return
    }
    if ('method' in value && 'id' in value && value.id !== undefined) this.unanswered.add(value.id)
    this.onmessage?.(value)
  }

  private reject(code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id: null, error: { code, message } })
  }

  private write(value: unknown): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(value) + '\n')) resolve()
      else this.output.once('drain', resolve)
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message)
    if (!('method' in message) && 'id' in message && message.id !== undefined) {
      this.unanswered.delete(message.id)
      if (this.inputEnded && this.unanswered.size === 0) await this.close()
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.input.off('data', this.onData)
    this.input.off('end', this.onEnd)
    this.input.off('close', this.onEnd)
    this.input.off('error', this.onInputError)
    this.chunks = []
    this.onclose?.()
  }
}
