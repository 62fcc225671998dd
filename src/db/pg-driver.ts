import type { Pool, PoolClient, PoolConfig } from 'pg'
import { DatabaseError, diskErrorFrom } from '../errors/index.js'
import { withConnectRetry } from './connect-retry.js'
import { INT8_OID, NUMERIC_OID, parseInt8, type Database, type QueryOptions, type QueryResult, type SqlExecutor, type SqlParam } from './types.js'

interface PgOpenOptions {
  url: string
  statementTimeoutMs: number
  idleTxTimeoutMs: number
  clientCheckIntervalMs: number
  retryConnect: boolean
  maxConnections?: number
  /** How long an idle connection is kept open for the next statement (default IDLE_CONNECTION_MS). */
  idleConnectionMs?: number
  onRetry?: (attempt: number, delayMs: number, err: unknown) => void
}

/**
 * Idle connections are kept this long. A new connection's server process starts with empty
 * catalog caches and none of the search statements prepared: at 100,000 notes a keyword search on
 * a fresh connection took 96–290 ms against 26–88 on a used one, a hybrid search 170–460 against
 * 47–131. With the driver's default of 10 s every search after a pause paid that, and agents and
 * people search at such intervals. Idle connections never keep a process from exiting.
 */
const IDLE_CONNECTION_MS = 5 * 60_000

/** Connection URL with the password removed, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '<invalid url>'
  }
}

export function validatePostgresUrl(url: string): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new DatabaseError('invalid_database_url', `"${url}" is not a valid PostgreSQL URL.`, {
      hint: 'Use the form postgres://user:password@host:5432/database.',
    })
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new DatabaseError('invalid_database_url', `"${redactUrl(url)}" is not a PostgreSQL URL (scheme ${parsed.protocol}).`, {
      hint: 'Use the form postgres://user:password@host:5432/database.',
    })
  }
  return parsed
}

/** A stable name per statement text: pg parses a named statement once per connection. */
function statementName(text: string): string {
  let hash = 2166136261
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619)
  return `brain_${(hash >>> 0).toString(36)}_${text.length.toString(36)}`
}

// BRAIN_HOME's disk is not the one that filled: the server's data directory is, often on another machine.
const SERVER_DISK_ADVICE =
  "Free some space on the PostgreSQL server's disk (where its data directory or WAL lives) and run the command again; PostgreSQL writes again by itself, pages already stored are kept, and a re-import skips them."

/** PostgreSQL's disk_full (SQLSTATE 53100) as the typed DiskError; other errors unchanged. */
export function asDiskError(err: unknown): unknown {
  return diskErrorFrom(err, 'on the PostgreSQL server', SERVER_DISK_ADVICE) ?? err
}

/** SQLSTATEs and socket errors of a connection the server or the network closed under a statement. */
const LOST_CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', 'ECONNRESET', 'EPIPE', 'ECONNREFUSED'])

/**
 * Whether a statement failed because its connection went away (a server restart, a dropped
 * network), not because of the statement: node-postgres reports a connection that ended under a
 * query as a plain Error with no code.
 */
export function isLostConnection(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string') return LOST_CONNECTION_CODES.has(code)
  return /Connection terminated|connection (is )?closed|Client has encountered a connection error/i.test(err.message)
}

/** A lost connection as the error a person can act on; other errors as they are. */
function asLostConnection(err: unknown): unknown {
  if (!isLostConnection(err)) return err
  const code = (err as { code?: unknown }).code
  // No connection to lose: the server is down or still starting, and says so in its own words.
  if (code === 'ECONNREFUSED' || code === '57P03') {
    return new DatabaseError('database_unreachable', `PostgreSQL did not take the connection: ${(err as Error).message}.`, {
      hint: 'Check that the server is running (`brain doctor` checks it), then run the command again.',
      cause: err,
    })
  }
  return new DatabaseError('database_connection_lost', 'The connection to PostgreSQL was lost under a statement: the server restarted or the network dropped.', {
    hint: 'Run the command again once the server answers (`brain doctor` checks it). Pages stored before are kept; a write that was cut off is either whole or absent.',
    cause: err,
  })
}

/**
 * A plain read on a pooled connection may meet a connection the server closed while it sat idle;
 * it is safe to send again on a fresh one. Writes and locking reads are never resent: the first
 * may have taken effect.
 */
function resendable(text: string): boolean {
  return /^\s*SELECT\b/i.test(text) && !/\bFOR\s+(UPDATE|NO\s+KEY\s+UPDATE|SHARE|KEY\s+SHARE)\b|\bnextval\s*\(|\bpg_advisory/i.test(text)
}

function executor(target: Pick<Pool | PoolClient, 'query'>, pooled: boolean): SqlExecutor {
  return {
    async query<R extends object>(text: string, params: readonly SqlParam[] = [], options: QueryOptions = {}): Promise<QueryResult<R>> {
      const values = params as unknown[]
      const send = () => (options.prepared ? target.query<R>({ name: statementName(text), text, values }) : target.query<R>(text, values))
      try {
        let result
        try {
          result = await send()
        } catch (err) {
          if (!(pooled && isLostConnection(err) && resendable(text))) throw err
          result = await send()
        }
        return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length }
      } catch (err) {
        throw asLostConnection(asDiskError(err))
      }
    },
    async exec(sql: string): Promise<void> {
      try {
        await target.query(sql)
      } catch (err) {
        throw asLostConnection(asDiskError(err))
      }
    },
  }
}

type PgTypes = typeof import('pg').types

function poolConfig(options: PgOpenOptions, builtinTypes: PgTypes): PoolConfig {
  const startupOptions: string[] = []
  if (options.clientCheckIntervalMs > 0) startupOptions.push(`-c client_connection_check_interval=${options.clientCheckIntervalMs}`)
  return {
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: options.idleConnectionMs ?? IDLE_CONNECTION_MS,
    allowExitOnIdle: true,
    // Sent in the start-up packet, so every connection carries them from its first statement.
    statement_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: options.idleTxTimeoutMs,
    ...(startupOptions.length > 0 ? { options: startupOptions.join(' ') } : {}),
    types: {
      getTypeParser: ((oid: number, format: 'text' | 'binary' = 'text') => {
        if (oid === INT8_OID || oid === NUMERIC_OID) return parseInt8
        return builtinTypes.getTypeParser(oid, format)
      }) as PgTypes['getTypeParser'],
    },
  }
}

/** Opens the server engine, retrying transient connection failures. */
export async function openPostgres(options: PgOpenOptions): Promise<Database> {
  validatePostgresUrl(options.url)
  const pg = await import('pg')
  const pool = new pg.default.Pool(poolConfig(options, pg.default.types))
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  const location = redactUrl(options.url)
  try {
    await withConnectRetry(
      async () => {
        const client = await pool.connect()
        client.release()
      },
      { retry: options.retryConnect, onRetry: options.onRetry },
    )
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw new DatabaseError('database_unreachable', `Could not connect to PostgreSQL at ${location}.`, {
      hint: 'Check that the server is running and the URL, user and password are right.',
      cause: err,
    })
  }
  const base = executor(pool, true)
  const listeners: PoolClient[] = []
  return {
    capabilities: { multiProcess: true, rowLevelSecurity: true, httpServer: true, notifications: true, autoAnalyze: true, parallelStatements: true },
    location,
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect().catch((err: unknown) => {
        throw asLostConnection(err)
      })
      let broken: Error | undefined
      // A checked-out client has no pool error handler, and node-postgres emits the loss of its
      // connection as an 'error' event as well as failing the statement: without this listener a
      // server that dies under a statement (a PANIC on a full disk) would crash the process.
      const onLost = (err: Error): void => {
        broken ??= err
      }
      client.on('error', onLost)
      try {
        await client.query('BEGIN')
        const result = await fn(executor(client, false))
        await client.query('COMMIT')
        return result
      } catch (err) {
        const failure = asLostConnection(asDiskError(err))
        // A connection that was lost goes nowhere near the pool again.
        if (failure instanceof DatabaseError && failure.code === 'database_connection_lost') broken = failure
        else await client.query('ROLLBACK').catch(() => undefined)
        throw failure
      } finally {
        client.off('error', onLost)
        client.release(broken)
      }
    },
    async listen(channel, onPayload) {
      const client = await pool.connect()
      listeners.push(client)
      const handler = (msg: { channel: string; payload?: string }): void => {
        if (msg.channel === channel) onPayload(msg.payload ?? '')
      }
      client.on('notification', handler)
      // A checked-out client has no pool error handler: without this one, losing the server
      // would crash the process. The subscription lapses; callers re-listen once queries work.
      const onError = (err: Error): void => {
        const index = listeners.indexOf(client)
        if (index >= 0) {
          listeners.splice(index, 1)
          client.release(err)
        }
      }
      client.on('error', onError)
      await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`)
      return async () => {
        client.off('notification', handler)
        await client.query(`UNLISTEN "${channel.replace(/"/g, '""')}"`).catch(() => undefined)
        const index = listeners.indexOf(client)
        if (index >= 0) {
          listeners.splice(index, 1)
          client.release()
        }
      }
    },
    async close() {
      for (const client of listeners.splice(0)) client.release()
      await pool.end()
    },
  }
}
