import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the stub received. */
export interface StubRequest {
  method: string
  path: string
  authorization: string | null
  body: Record<string, unknown> | null
}

/** What the stub does with the next request. */
export type StubReply =
  | { kind: 'answer'; text: string; model?: string }
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  /** Sends part of a stream, then drops the connection. */
  | { kind: 'cut'; text: string }
  /** Never answers (a timeout). */
  | { kind: 'hang' }

export interface StubLlm {
  url: string
  requests: StubRequest[]
  /** Replies in order; the last one repeats. */
  script(...replies: StubReply[]): void
  /** Models GET /models lists. */
  models: string[]
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    req.on('data', (d: Buffer) => (data += d.toString()))
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
}

/** Splits text into a few deltas, as a model streams. */
function pieces(text: string): string[] {
  const words = text.split(/(?<=\s)/)
  const out: string[] = []
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(''))
  return out.length > 0 ? out : ['']
}

function answer(res: ServerResponse, reply: Extract<StubReply, { kind: 'answer' | 'cut' }>, stream: boolean, model: string): void {
  if (!stream) {
    if (reply.kind === 'cut') {
      res.socket?.destroy()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }] }))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  res.write(chunk(model, { role: 'assistant' }, null))
  for (const piece of pieces(reply.text)) res.write(chunk(model, { content: piece }, null))
  if (reply.kind === 'cut') {
    // Let the written part reach the client before the connection drops.
    res.socket?.end(() => res.socket?.destroy())
    return
  }
  res.write(chunk(model, {}, 'stop'))
  res.end('data: [DONE]\n\n')
}

/**
 * A local OpenAI-compatible server (POST /v1/chat/completions, streaming or not, and GET
 * /v1/models) that answers from a script and records every request. Stop it with close().
 */
export async function startStubLlm(): Promise<StubLlm> {
  let replies: StubReply[] = [{ kind: 'answer', text: 'Nothing scripted [1].' }]
  let served = 0
  const requests: StubRequest[] = []
  const hanging = new Set<ServerResponse>()
  const stub: Partial<StubLlm> = { requests, models: ['stub-model'] }
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req)
      const body = raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>)
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization ?? null, body })
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: stub.models!.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stub' })) }))
        return
      }
      const reply = replies[Math.min(served, replies.length - 1)]!
      served++
      if (reply.kind === 'hang') {
        hanging.add(res)
        return
      }
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        res.end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: 'stub_error' } }))
        return
      }
      const model = reply.kind === 'answer' && reply.model ? reply.model : String(body?.model ?? 'stub-model')
      answer(res, reply, body?.stream === true, model)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  stub.url = `http://127.0.0.1:${port}/v1`
  stub.script = (...next: StubReply[]) => {
    replies = next
    served = 0
    requests.length = 0
  }
  stub.close = async () => {
    for (const res of hanging) res.socket?.destroy()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return stub as StubLlm
}
