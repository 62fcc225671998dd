/**
 * One agent hook answered in the service: the hook process only relays its input and prints the
 * answer, so it loads no more than a socket. The client sends its hello at once and its input
 * (one `stdin` frame) as soon as it has read it, without waiting to be asked: one round trip. The
 * answer waits for the input only when it needs it, so a hook the service does not answer never
 * waits on its stdin.
 */
import type { Socket } from 'node:net'
import type { BrainHost } from './command-context.js'
import { Frame, encodeJson, type HookAnswer, type HookRequest, type Reply } from './protocol.js'

/**
 * Answers one hook in the service's process. `input` is the hook's stdin, once the client has
 * sent it; null: not this service's to answer (the client answers it as if no service listened).
 */
export type AnswerHook = (request: HookRequest, input: () => Promise<string>, host: BrainHost, signal: AbortSignal) => Promise<HookAnswer | null>

export class HookExchange {
  private readonly controller = new AbortController()
  private receive!: (raw: string) => void
  private cutOff!: (err: Error) => void
  private readonly input = new Promise<string>((resolve, reject) => {
    this.receive = resolve
    this.cutOff = reject
  })

  constructor(
    private readonly socket: Socket,
    private readonly request: HookRequest,
    private readonly deps: { host: BrainHost; answerHook: AnswerHook },
  ) {
    // A rejection nobody awaits (the client left before the answer needed its input) is no error.
    this.input.catch(() => undefined)
    socket.once('close', () => {
      const gone = new Error('the client went away')
      this.cutOff(gone)
      this.controller.abort(gone)
    })
  }

  /** After the hello, the one frame a hook client sends: its whole input. */
  onFrame(type: number, payload: Buffer): void {
    if (type === Frame.stdin) this.receive(payload.toString('utf8'))
  }

  async run(): Promise<void> {
    const input = (): Promise<string> => this.input
    let reply: Reply
    try {
      const answer = await this.deps.answerHook(this.request, input, this.deps.host, this.controller.signal)
      reply = answer === null ? { kind: 'hook-elsewhere' } : { kind: 'hook', ...answer }
    } catch (err) {
      reply = { kind: 'hook', stdout: '', note: `failed: ${err instanceof Error ? err.message : String(err)}` }
    }
    if (!this.socket.destroyed) this.socket.end(encodeJson(Frame.reply, reply))
  }
}
