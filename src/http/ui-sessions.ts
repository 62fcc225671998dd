import { randomBytes, createHash, timingSafeEqual } from 'node:crypto'

/** A sign-in link is good for one use within this long. */
const CODE_TTL_MS = 10 * 60_000
/** A browser session of the local web app lasts this long. */
const SESSION_TTL_MS = 12 * 3600_000

const hash = (value: string) => createHash('sha256').update(value).digest()

/**
 * The local web app's sign-in: `brain ui` hands out a one-time code in a link; the browser trades
 * it for a session id in an HttpOnly, SameSite=Strict cookie. Only hashes are kept, in memory:
 * restarting the service signs every browser out.
 */
export class UiSessions {
  private readonly codes = new Map<string, number>()
  private readonly sessions = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh one-time sign-in code. */
  issueCode(): string {
    const code = randomBytes(24).toString('base64url')
    this.codes.set(hash(code).toString('hex'), this.now() + CODE_TTL_MS)
    return code
  }

  /** Trades a code for a new session id; null when the code is unknown, used or expired. */
  redeem(code: string): string | null {
    const key = hash(code).toString('hex')
    const expires = this.codes.get(key)
    this.codes.delete(key)
    if (expires === undefined || expires < this.now()) return null
    const session = randomBytes(32).toString('base64url')
    this.sessions.set(hash(session).toString('hex'), this.now() + SESSION_TTL_MS)
    return session
  }

  valid(session: string | undefined): boolean {
    if (!session) return false
    const digest = hash(session)
    for (const [key, expires] of this.sessions) {
      if (expires < this.now()) {
        this.sessions.delete(key)
        continue
      }
      if (timingSafeEqual(Buffer.from(key, 'hex'), digest)) return true
    }
    return false
  }
}

/** The session cookie's value from a Cookie header. */
export function sessionCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === UI_SESSION_COOKIE) return value.join('=')
  }
  return undefined
}

export const UI_SESSION_COOKIE = 'brain_session'
