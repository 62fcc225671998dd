import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Prefixes make each kind of credential recognisable in a log or a leak, and let the bearer
 * check send an OAuth token to its table without trying the static-token table first.
 */
export const PREFIX = {
  client: 'bc_',
  clientSecret: 'bcs_',
  code: 'boc_',
  access: 'boa_',
  refresh: 'bor_',
} as const

export function randomValue(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url')
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

/** Constant-time equality of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest()
  const right = createHash('sha256').update(b, 'utf8').digest()
  return timingSafeEqual(left, right) && a.length === b.length
}

/** RFC 7636: 43-128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/** Whether a PKCE verifier matches an S256 challenge. */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined || !VERIFIER.test(verifier)) return false
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url')
  return safeEqual(computed, challenge)
}

/** An S256 challenge is the base64url of a SHA-256 digest: 43 characters. */
export function isS256Challenge(challenge: string | undefined): challenge is string {
  return challenge !== undefined && /^[A-Za-z0-9\-_]{43}$/.test(challenge)
}
