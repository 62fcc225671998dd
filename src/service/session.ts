import type { Socket } from 'node:net'
import { Readable, Writable } from 'node:stream'
import { WriteStream } from 'node:tty'
import type { CommandContext, BrainHost } from './command-context.js'
import { BrainError } from '../errors/index.js'
import { Frame, encodeFrame, encodeJson, type FrameType, type Hello, type TerminalFacts } from './protocol.js'

type RunHello = Extract<Hello, { kind: 'run' }>

/**
 * A stream whose bytes go to the client as frames of one type, in order, with the socket's
 * backpressure. Once the client is gone, writes are dropped so a command never blocks on it.
 */
function frameWriter(socket: Socket, type: FrameType, isTTY: boolean, columns: number | null): Writable {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (socket.destroyed || !socket.writable) return callback()
      if (socket.write(encodeFrame(type, chunk))) return callback()
      let called = false
      const done = (): void => {
        if (called) return
        called = true
        socket.off('drain', done)
        socket.off('close', done)
        callback()
      }
      socket.once('drain', done)
      socket.once('close', done)
    },
  })
  // A late write after the command finished must not crash the service.
  stream.on('error', () => undefined)
  return Object.assign(stream, isTTY ? { isTTY: true, columns: columns ?? 80 } : {})
}

function ended(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableFinished) return resolve()
    stream.once('finish', resolve)
    stream.once('error', () => resolve())
    stream.end()
  })
}

export interface SessionDeps {
  host: BrainHost
  runCli: (argv: string[], context: CommandContext) => Promise<number>
}

/**
 * Runs one forwarded command line with the client's streams, directory and environment. The
 * command's signal aborts on Ctrl-C in the client or when the client goes away.
 */
export class Session {
  private readonly controller = new AbortController()
  /**
   * The client's stdin, asked for at the command's first read: most commands read none, and the
   * client then never opens its own (which costs it a stream, and for a file the I/O threads).
   */
  private readonly stdin = new Readable({ read: () => this.askForStdin() })
  private askedForStdin = false
  /** The client said its input is complete; only then may a command act on what it read. */
  private stdinComplete = false
  private finished = false

  constructor(
    private readonly socket: Socket,
    private readonly hello: RunHello,
    private readonly deps: SessionDeps,
  ) {
    Object.assign(this.stdin, { isTTY: hello.terminal.stdinIsTTY })
    // A cut-off input fails its readers (see abort); a command that never reads stdin must not
    // turn that into an uncaught error of the whole service.
    this.stdin.on('error', () => undefined)
    socket.once('close', () => this.abort('the client went away'))
  }

  /** A frame after the hello: stdin bytes, end of stdin, or Ctrl-C. */
  onFrame(type: number, payload: Buffer): void {
    if (type === Frame.stdin) this.stdin.push(payload)
    else if (type === Frame.stdinEnd) {
      this.stdinComplete = true
      this.stdin.push(null)
    } else if (type === Frame.interrupt) this.abort('interrupted')
  }

  private askForStdin(): void {
    if (this.askedForStdin || this.finished) return
    this.askedForStdin = true
    if (!this.socket.destroyed) this.socket.write(encodeFrame(Frame.accepted))
  }

  abort(reason: string): void {
    if (this.finished || this.controller.signal.aborted) return
    this.controller.abort(new Error(reason))
    // A command reading stdin must not wait forever, nor take a cut-off input for the whole of
    // it: input that never saw its end marker fails the read, so nothing half-sent is stored.
    if (this.stdinComplete) return
    this.stdin.destroy(
      new BrainError('input_interrupted', `The input was cut off before its end (${reason}); nothing was written.`, {
        hint: 'Send the whole input again.',
      }),
    )
  }

  async run(): Promise<number> {
    const terminal: TerminalFacts = this.hello.terminal
    const stdout = frameWriter(this.socket, Frame.stdout, terminal.stdoutIsTTY, terminal.stdoutColumns)
    const stderr = frameWriter(this.socket, Frame.stderr, terminal.stderrIsTTY, terminal.stderrColumns)
    const context: CommandContext = {
      stdin: this.stdin,
      stdout,
      stderr,
      env: this.hello.env,
      colorDepth: terminal.colorDepth ?? WriteStream.prototype.getColorDepth(this.hello.env),
      cwd: this.hello.cwd,
      host: this.deps.host,
      signal: this.controller.signal,
    }
    let code: number
    try {
      code = await this.deps.runCli(this.hello.argv, context)
    } catch (err) {
      stderr.write(`brain: ${err instanceof Error ? err.message : String(err)}\n`)
      code = 1
    }
    this.finished = true
    await Promise.all([ended(stdout), ended(stderr)])
    if (!this.socket.destroyed) this.socket.end(encodeJson(Frame.exit, { code }))
    return code
  }
}
