import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  path: string
  authorization: string | undefined
  body: { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown }
}

/** How the fake answers; tests change it between requests. */
export interface FakeBehavior {
  mode: 'ok' | 'error500' | 'hang'
  /** Dimensions of returned vectors when the request names none, like a model without `dimensions` support. */
  nativeDimensions: number
  /** Ignore the request's `dimensions` (a server whose model cannot shorten vectors). */
  ignoreDimensions: boolean
  /** Send float arrays even when base64 was requested, as some compatible servers do. */
  ignoreEncodingFormat: boolean
  /** Return `data` in reverse order; clients must place vectors by `index`. */
  reverseOrder: boolean
}

export interface FakeOpenAIServer {
  baseURL: string
  validKey: string
  requests: RecordedRequest[]
  behavior: FakeBehavior
  close(): Promise<void>
}

/**
 * The value a fake vector carries at position 0: the input's length, so a test can tell which
 * input a vector belongs to.
 */
export function fakeVector(input: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  vector[0] = input.length
  for (let i = 1; i < dimensions; i++) vector[i] = ((input.charCodeAt(i % Math.max(1, input.length)) || 1) % 97) / 97
  return vector
}

export async function startFakeOpenAIServer(validKey = 'sk-test-valid'): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = []
  const behavior: FakeBehavior = { mode: 'ok', nativeDimensions: 3072, ignoreDimensions: false, ignoreEncodingFormat: false, reverseOrder: false }

  const server = createServer((req, res) => {
    void handle(req, res)
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as RecordedRequest['body']
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body })

    if (req.headers.authorization !== `Bearer ${validKey}`) {
      return json(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } })
    }
    if (behavior.mode === 'hang') return // never answers; the client must time out or abort
    if (behavior.mode === 'error500') {
      return json(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } })
    }
    if (!req.url?.endsWith('/embeddings') || req.method !== 'POST') return json(res, 404, { error: { message: 'Not found' } })

    const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)]
    const dimensions = typeof body.dimensions === 'number' && !behavior.ignoreDimensions ? body.dimensions : behavior.nativeDimensions
    const asBase64 = body.encoding_format === 'base64' && !behavior.ignoreEncodingFormat
    const data = inputs.map((input, index) => {
      const vector = fakeVector(input, dimensions)
      const embedding = asBase64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector
      return { object: 'embedding', index, embedding }
    })
    if (behavior.reverseOrder) data.reverse()
    json(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    validKey,
    requests,
    behavior,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests keep sockets open; close them so the test process can exit.
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function json(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(payload))
}
