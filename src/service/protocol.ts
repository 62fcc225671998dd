/**
 * Framing on the service socket: one type byte, a 4-byte big-endian length, then the payload.
 * Control frames carry JSON; stream frames carry raw bytes, so output arrives as it is written.
 */
export const Frame = {
  /** client → service: a `Hello` (JSON). */
  hello: 0x48,
  /** client → service: bytes of stdin; for a hook, one frame holding the whole of the hook's input. */
  stdin: 0x49,
  /** client → service: end of stdin. */
  stdinEnd: 0x45,
  /** client → service: the user pressed Ctrl-C. */
  interrupt: 0x53,
  /**
   * service → client: the command reads its input; the client sends stdin from now on. Sent at
   * the command's first read, so a command that reads none leaves the client's stdin untouched.
   */
  accepted: 0x41,
  /** service → client: bytes of stdout. */
  stdout: 0x4f,
  /** service → client: bytes of stderr. */
  stderr: 0x52,
  /** service → client: the command finished, `{code}` (JSON). */
  exit: 0x58,
  /** service → client: a reply to a status, stop or refused request (JSON). */
  reply: 0x50,
} as const

export type FrameType = (typeof Frame)[keyof typeof Frame]

export interface Identity {
  version: string
  build: string
}

export interface TerminalFacts {
  stdinIsTTY: boolean
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  stdoutColumns: number | null
  stderrColumns: number | null
  /**
   * The client's colour depth; null leaves it to the service, which works it out from the
   * client's environment as node would (a relay then need not load node's tty module).
   */
  colorDepth: number | null
}

/** One operation of the catalogue called by name with its arguments, answered by a `result` reply: no command line, no printed text. */
export interface OperationCall {
  operation: string
  args: Record<string, unknown>
  cwd: string
  env: Record<string, string>
}

/**
 * An agent's hook answered by the service: the words after `brain hook`, the hook process's
 * directory and environment. The client sends the hook's input as one `stdin` frame once read,
 * unasked; the service reads it only when its answer needs it.
 */
export interface HookRequest {
  args: string[]
  cwd: string
  env: Record<string, string>
}

/** What a hook prints, and its line in hooks.log (null: none), without the time it took. */
export interface HookAnswer {
  stdout: string
  note: string | null
}

export type Hello =
  | ({ kind: 'run'; argv: string[]; cwd: string; env: Record<string, string>; terminal: TerminalFacts } & Identity)
  | ({ kind: 'call' } & OperationCall & Identity)
  | ({ kind: 'hook' } & HookRequest & Identity)
  | ({ kind: 'status' } & Identity)
  | ({ kind: 'stop' } & Identity)

/** How a called operation ended: its JSON result, or the error's code and message. */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } }

export interface ServiceStatus {
  pid: number
  version: string
  build: string
  socket: string
  startedAt: string
  clients: number
  runningJobs: number
  idleTimeoutMs: number
  brains: string[]
}

export type Reply =
  | { kind: 'status'; status: ServiceStatus }
  | { kind: 'stopping'; pid: number }
  | ({ kind: 'result' } & CallOutcome)
  | ({ kind: 'hook' } & HookAnswer)
  /** This hook is not the service's to answer (no service wanted, a thin client): the hook answers it as if none listened. */
  | { kind: 'hook-elsewhere' }
  /** A different build: the service restarts (idle) or refuses (busy). */
  | { kind: 'skew'; restarting: boolean; pid: number; message: string }

const HEADER = 5
const MAX_FRAME = 64 * 1024 * 1024

export function encodeFrame(type: FrameType, payload: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
  const header = Buffer.alloc(HEADER)
  header.writeUInt8(type, 0)
  header.writeUInt32BE(body.length, 1)
  return Buffer.concat([header, body])
}

export function encodeJson(type: FrameType, value: unknown): Buffer {
  return encodeFrame(type, JSON.stringify(value))
}

/** Splits a byte stream into frames; feed it every chunk the socket delivers. */
export class FrameDecoder {
  private buffer: Buffer = Buffer.alloc(0)

  constructor(private readonly onFrame: (type: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    while (this.buffer.length >= HEADER) {
      const length = this.buffer.readUInt32BE(1)
      if (length > MAX_FRAME) throw new Error(`service frame of ${length} bytes is too large`)
      if (this.buffer.length < HEADER + length) return
      const type = this.buffer.readUInt8(0)
      const payload = this.buffer.subarray(HEADER, HEADER + length)
      this.buffer = this.buffer.subarray(HEADER + length)
      this.onFrame(type, payload)
    }
  }
}
