/** TypeScript source files of an imaginary service. [path, content] */
export const TS_FILES: ReadonlyArray<readonly [string, string]> = [
  [
    'src/http/rate-limiter.ts',
    `/** Token bucket per client id: refills at \`ratePerSec\`, holds at most \`burst\` tokens. */
export class TokenBucket {
  private tokens: number
  private last = Date.now()
  constructor(private readonly ratePerSec: number, private readonly burst: number) {
    this.tokens = burst
  }

  /** Spends one token; false means the caller should answer 429 Too Many Requests. */
  tryTake(now = Date.now()): boolean {
    const elapsed = (now - this.last) / 1000
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.ratePerSec)
    this.last = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

export function retryAfterSeconds(bucket: { ratePerSec: number }): number {
  return Math.ceil(1 / bucket.ratePerSec)
}
`,
  ],
  [
    'src/util/retry.ts',
    `export interface RetryOptions { attempts: number; baseMs: number; capMs: number }

/** Full jitter: a random delay between zero and min(cap, base * 2^attempt). */
export function backoffDelay(attempt: number, options: RetryOptions, random = Math.random): number {
  return random() * Math.min(options.capMs, options.baseMs * 2 ** attempt)
}

/** Calls \`fn\` until it resolves or the attempts run out; rethrows the last error. */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    try {
      return await fn()
    } catch (err) {
      lastError = err
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, options)))
    }
  }
  throw lastError
}
`,
  ],
  [
    'src/util/lru-cache.ts',
    `/** Least-recently-used cache on top of Map's insertion order. */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>()
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key)
    if (value === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, value)
    return value
  }

  /** Inserts and evicts the oldest entry when over capacity. */
  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K)
  }
}
`,
  ],
  [
    'src/billing/idempotency.ts',
    `import type { Db } from '../db/client.js'

/** Returns the stored response for a repeated Idempotency-Key, or null on first use. */
export async function findStoredResponse(db: Db, accountId: string, key: string): Promise<string | null> {
  const row = await db.one('SELECT response FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at > now()', [accountId, key])
  return row?.response ?? null
}

/** Saves the response of a charge so a retried request gets the same answer. */
export async function storeResponse(db: Db, accountId: string, key: string, response: string): Promise<void> {
  await db.run(
    "INSERT INTO idempotency_keys (account_id, key, response, expires_at) VALUES ($1, $2, $3, now() + interval '24 hours') ON CONFLICT DO NOTHING",
    [accountId, key, response],
  )
}
`,
  ],
  [
    'src/billing/invoice.ts',
    `export interface LineItem { description: string; quantity: number; unitCents: number; taxRate: number }

/** Sums line items in integer cents; tax is rounded per line, half away from zero. */
export function invoiceTotal(items: LineItem[]): { netCents: number; taxCents: number; grossCents: number } {
  let netCents = 0
  let taxCents = 0
  for (const item of items) {
    const net = item.quantity * item.unitCents
    netCents += net
    taxCents += Math.round(net * item.taxRate)
  }
  return { netCents, taxCents, grossCents: netCents + taxCents }
}

export function formatCents(cents: number, currency = 'EUR'): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100)
}
`,
  ],
  [
    'src/auth/jwt.ts',
    `import { createHmac, timingSafeEqual } from 'node:crypto'

/** Verifies an HS256 JSON Web Token and returns its claims; throws on a bad signature or expiry. */
export function verifyJwt(token: string, secret: string, now = Date.now()): Record<string, unknown> {
  const [header, payload, signature] = token.split('.')
  const expected = createHmac('sha256', secret).update(header + '.' + payload).digest('base64url')
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) throw new Error('bad signature')
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  if (typeof claims.exp === 'number' && claims.exp * 1000 < now) throw new Error('token expired')
  return claims
}
`,
  ],
  [
    'src/auth/password.ts',
    `import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(scryptCb)

/** Hashes a password with scrypt and a random 16-byte salt: "salt:hash" in hex. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = (await scrypt(password, salt, 64)) as Buffer
  return salt.toString('hex') + ':' + hash.toString('hex')
}

export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(':')
  const hash = (await scrypt(password, Buffer.from(saltHex, 'hex'), 64)) as Buffer
  return timingSafeEqual(hash, Buffer.from(hashHex, 'hex'))
}
`,
  ],
  [
    'src/queue/worker.ts',
    `import type { Job, JobStore } from './store.js'

/** Claims jobs with FOR UPDATE SKIP LOCKED so several workers never take the same one. */
export async function claimNext(store: JobStore, queue: string): Promise<Job | null> {
  return store.one(
    \`UPDATE jobs SET state = 'active', started_at = now()
     WHERE id = (SELECT id FROM jobs WHERE queue = $1 AND state = 'waiting' ORDER BY priority DESC, id
                 FOR UPDATE SKIP LOCKED LIMIT 1)
     RETURNING *\`,
    [queue],
  )
}

/** Runs one job with a deadline; a job that overruns is aborted and marked failed. */
export async function runWithTimeout(job: Job, handler: (signal: AbortSignal) => Promise<void>, timeoutMs: number): Promise<void> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    await handler(controller.signal)
  } finally {
    clearTimeout(timer)
  }
}
`,
  ],
  [
    'src/search/fuse.ts',
    `/** Reciprocal rank fusion of several ranked id lists; k dampens the weight of top ranks. */
export function fuseRankings(lists: string[][], k = 60): string[] {
  const scores = new Map<string, number>()
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)))
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id)
}
`,
  ],
  [
    'src/search/tokenize.ts',
    `const STOPWORDS = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'to', 'in'])

/** Lower-cases, splits on non-letters, drops stopwords and very short tokens. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter((t) => t.length > 1 && !STOPWORDS.has(t))
}

/** Splits camelCase and snake_case identifiers into words for code search. */
export function splitIdentifier(identifier: string): string[] {
  return identifier.replace(/([a-z])([A-Z])/g, '$1 $2').split(/[\\s_]+/).map((w) => w.toLowerCase())
}
`,
  ],
  [
    'src/db/pool.ts',
    `import pg from 'pg'

/** One pool per process; size from Little's law: peak requests per second times query seconds. */
export function createPool(url: string, peakRps: number, querySeconds: number): pg.Pool {
  const max = Math.max(2, Math.ceil(peakRps * querySeconds * 1.5))
  return new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, statement_timeout: 5_000 })
}

/** Runs \`fn\` in a transaction and rolls back on any error. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK')
    throw err
  } finally {
    client.release()
  }
}
`,
  ],
  [
    'src/db/migrate.ts',
    `import { readdirSync, readFileSync } from 'node:fs'

/** Applies numbered .sql files in order, recording each in schema_migrations; re-running is a no-op. */
export async function migrate(db: { query(sql: string, params?: unknown[]): Promise<{ rows: Array<{ version: number }> }> }, dir: string): Promise<number[]> {
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY)')
  const done = new Set((await db.query('SELECT version FROM schema_migrations')).rows.map((r) => r.version))
  const applied: number[] = []
  for (const file of readdirSync(dir).filter((f) => /^\\d+_.*\\.sql$/.test(f)).sort()) {
    const version = Number.parseInt(file, 10)
    if (done.has(version)) continue
    await db.query(readFileSync(dir + '/' + file, 'utf8'))
    await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version])
    applied.push(version)
  }
  return applied
}
`,
  ],
  [
    'src/http/cors.ts',
    `/** Default-deny CORS: only origins on the allow-list get Access-Control-Allow-Origin. */
export function corsHeaders(origin: string | undefined, allowed: string[]): Record<string, string> {
  if (!origin || !allowed.includes(origin)) return {}
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    Vary: 'Origin',
  }
}
`,
  ],
  [
    'src/ui/theme.ts',
    `/** Relative luminance per WCAG 2.1 for an sRGB colour given as #rrggbb. */
export function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** Contrast ratio between two colours; 4.5 is the AA minimum for body text. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}
`,
  ],
  [
    'src/observability/tracing.ts',
    `import { trace, SpanStatusCode } from '@opentelemetry/api'

const tracer = trace.getTracer('billing')

/** Wraps an async call in a span, recording exceptions and setting the error status. */
export async function traced<T>(name: string, fn: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await fn()
    } catch (err) {
      span.recordException(err as Error)
      span.setStatus({ code: SpanStatusCode.ERROR })
      throw err
    } finally {
      span.end()
    }
  })
}
`,
  ],
  [
    'src/http/circuit-breaker.ts',
    `type State = 'closed' | 'open' | 'half-open'

/** Opens after \`threshold\` consecutive failures, fails fast for \`coolDownMs\`, then lets one trial call through. */
export class CircuitBreaker {
  private state: State = 'closed'
  private failures = 0
  private openedAt = 0
  constructor(private readonly threshold: number, private readonly coolDownMs: number) {}

  async call<T>(fn: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.state === 'open' && now - this.openedAt < this.coolDownMs) throw new Error('circuit open')
    if (this.state === 'open') this.state = 'half-open'
    try {
      const result = await fn()
      this.state = 'closed'
      this.failures = 0
      return result
    } catch (err) {
      this.failures++
      if (this.state === 'half-open' || this.failures >= this.threshold) {
        this.state = 'open'
        this.openedAt = now
      }
      throw err
    }
  }
}
`,
  ],
]
