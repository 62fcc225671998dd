import type { IncomingMessage } from 'node:http'

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' }

/**
 * Reads a request body, counting bytes as they arrive, so a chunked upload without
 * Content-Length is capped as surely as one that announces its size. A declared length over
 * the cap is refused before reading anything.
 */
export function readBodyCapped(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume()
    return Promise.resolve({ ok: false, reason: 'too_large' })
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    let settled = false
    const finish = (result: BodyResult): void => {
      if (settled) return
      settled = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onAbort)
      req.off('aborted', onAbort)
      resolve(result)
    }
    const onData = (chunk: Buffer): void => {
      received += chunk.length
      if (received > maxBytes) {
        chunks.length = 0
        // Keep draining without storing, so the response can still be written.
        req.resume()
        finish({ ok: false, reason: 'too_large' })
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => finish({ ok: true, body: Buffer.concat(chunks) })
    const onAbort = (): void => finish({ ok: false, reason: 'aborted' })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onAbort)
    req.on('aborted', onAbort)
  })
}
