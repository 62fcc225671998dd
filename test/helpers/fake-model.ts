/**
 * A model endpoint on 127.0.0.1 for driving real coding agents without a provider: just enough
 * of the Anthropic Messages API (Claude Code streams over SSE) and of the Gemini API
 * (`streamGenerateContent?alt=sse`) to end every turn with one text answer. Every request is
 * recorded, so a test can read what the agent sent the model: its context and its tools.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export const FAKE_ANSWER = 'The fake model answers: noted.'

export interface RecordedRequest {
  method: string
  path: string
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  body: Record<string, unknown> | null
  /** The raw body, to search for text wherever the agent put it. */
  text: string
}

export interface FakeModel {
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

function sendEvents(res: ServerResponse, events: ReadonlyArray<[string | null, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const [name, data] of events) res.write(`${name === null ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`)
  res.end()
}

/** `POST /v1/messages`: a streamed or whole assistant message holding the answer; `count_tokens` too. */
function anthropic(path: string, body: Record<string, unknown> | null, res: ServerResponse): void {
  if (path.startsWith('/v1/messages/count_tokens')) return sendJson(res, 200, { input_tokens: 10 })
  const message = {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: typeof body?.model === 'string' ? body.model : 'fake',
    content: [] as unknown[],
    stop_reason: null as string | null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  }
  if (body?.stream !== true) return sendJson(res, 200, { ...message, content: [{ type: 'text', text: FAKE_ANSWER }], stop_reason: 'end_turn' })
  sendEvents(res, [
    ['message_start', { type: 'message_start', message }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: FAKE_ANSWER } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 8 } }],
    ['message_stop', { type: 'message_stop' }],
  ])
}

/** `…/models/<model>:<method>`: the answer as one candidate, streamed or whole. */
function gemini(model: string, method: string, res: ServerResponse): void {
  if (method === 'countTokens') return sendJson(res, 200, { totalTokens: 10 })
  const reply = {
    candidates: [{ content: { role: 'model', parts: [{ text: FAKE_ANSWER }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 8, totalTokenCount: 18 },
    modelVersion: model,
  }
  if (method === 'streamGenerateContent') return sendEvents(res, [[null, reply]])
  sendJson(res, 200, reply)
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: RecordedRequest[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
      const body = parse(text)
      requests.push({ method: req.method ?? 'GET', path, body, text })
      if (req.method === 'POST' && path.startsWith('/v1/messages')) return anthropic(path, body, res)
      const call = /\/models\/([^/:]+):(\w+)$/.exec(path)
      if (req.method === 'POST' && call) return gemini(call[1]!, call[2]!, res)
      // Connectivity probes (Claude Code sends a HEAD /) and anything else.
      sendJson(res, req.method === 'HEAD' ? 200 : 404, { error: { message: `no ${req.method} ${path} here` } })
    })
  })
  server.on('clientError', (_err, socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface ProxyTrap {
  url: string
  /** `CONNECT host:port` or `GET http://…` of each attempt, refused. */
  attempts: string[]
  close(): Promise<void>
}

/**
 * A proxy on 127.0.0.1 that refuses everything and records what was asked: pointed to by the
 * clients' HTTP(S)_PROXY, it shows what they would have fetched from beyond this machine.
 */
export async function startProxyTrap(): Promise<ProxyTrap> {
  const attempts: string[] = []
  const server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`)
    res.writeHead(403).end()
  })
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    attempts.push(`CONNECT ${req.url}`)
    // A client that hangs up first must not take the test process down with it.
    socket.on('error', () => undefined)
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
  })
  server.on('clientError', (_err, socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
