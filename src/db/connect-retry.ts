/**
 * Connection retry for the server engine. Only the transient classes named by the spec are
 * retried: authentication failure at start-up, connection refused, database starting up,
 * connection terminated, and connection reset. Everything else fails at once.
 */
const TRANSIENT_SQLSTATES = new Set([
  '28000', // invalid_authorization_specification: auth failed while the server starts
  '28P01', // invalid_password: same, seen while credentials are provisioned
  '57P03', // cannot_connect_now: the database system is starting up
  '57P01', // admin_shutdown: connection terminated by a restarting server
  '08006', // connection_failure
])

const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'])

export const RETRY_DELAYS_MS = [1000, 2000, 4000] as const

function codeOf(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code
  return undefined
}

/**
 * node-postgres reports an unexpected end of the connection as a plain Error without a code;
 * during connect no other error takes that shape, so the absence of any code marks it.
 */
export function isTransientConnectError(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.some(isTransientConnectError)
  const code = codeOf(err)
  if (code === undefined) return err instanceof Error && err.constructor === Error
  return TRANSIENT_SQLSTATES.has(code) || TRANSIENT_ERRNO.has(code)
}

export interface RetryOptions {
  retry: boolean
  delaysMs?: readonly number[]
  sleep?: (ms: number) => Promise<void>
  onRetry?: (attempt: number, delayMs: number, err: unknown) => void
}

/** Runs `connect`, retrying transient failures after each delay in turn (3 retries by default). */
export async function withConnectRetry<T>(connect: () => Promise<T>, options: RetryOptions): Promise<T> {
  const delays = options.retry ? (options.delaysMs ?? RETRY_DELAYS_MS) : []
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect()
    } catch (err) {
      const delay = delays[attempt]
      if (delay === undefined || !isTransientConnectError(err)) throw err
      options.onRetry?.(attempt + 1, delay, err)
      await sleep(delay)
    }
  }
}
