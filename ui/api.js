// The app's only way to the brain: the JSON API (/api/<operation>), the same operations the CLI
// and MCP run, and the live event stream (/api/events).

const TOKEN_KEY = 'brain.token'
/** @type {(message?: string) => void} */
let onSignedOut = () => undefined

/**
 * The error envelope of a failed call, when the server sent one.
 * @typedef {{ message?: string, code?: string, hint?: string }} Envelope
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {Envelope | undefined} envelope
   */
  constructor(status, envelope) {
    super(envelope?.message ?? `HTTP ${status}`)
    this.status = status
    this.code = envelope?.code
    this.hint = envelope?.hint
  }
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  /** @param {string} value */
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
}

/** @param {(message?: string) => void} handler */
export function whenSignedOut(handler) {
  onSignedOut = handler
}

function headers() {
  const bearer = token.get()
  return { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) }
}

/**
 * Runs one operation. Its result is the operation's JSON as the server's schema defines it; the
 * screens read the fields they show.
 * @param {string} name
 * @param {Record<string, unknown>} [args]
 * @returns {Promise<any>}
 */
export async function api(name, args = {}) {
  const response = await fetch(`/api/${name}`, { method: 'POST', headers: headers(), body: JSON.stringify(args) })
  const body = await response.json().catch(() => ({}))
  if (response.status === 401) {
    const had = token.get()
    token.clear()
    onSignedOut(had ? 'That token was not accepted.' : undefined)
    throw new ApiError(401, body.error)
  }
  if (!response.ok) throw new ApiError(response.status, body.error)
  return body
}

/**
 * Follows /api/events (server-sent events, read through fetch so the token travels in a header)
 * and calls `handler(event, data)` per event until the returned stop() is called; reconnects
 * after a dropped connection.
 * @param {(event: string, data: any) => void} handler
 */
export function subscribe(handler) {
  const controller = new AbortController()
  let stopped = false
  const run = async () => {
    while (!stopped) {
      try {
        const response = await fetch('/api/events', { headers: headers(), signal: controller.signal })
        if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`)
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          /** @type {number} */
          let cut
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            const event = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (event && data) handler(event, JSON.parse(data))
          }
        }
      } catch {
        if (stopped) return
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
  void run()
  return () => {
    stopped = true
    controller.abort()
  }
}
