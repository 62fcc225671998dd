import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import { serializeError } from '../errors/index.js'
import { checkConnection, checkPgvector, checkSchema } from './database.js'
import { checkAgents, type AgentsCheckOptions } from './agents.js'
import { checkBackups } from './backups.js'
import { checkEmbeddings } from './embeddings.js'
import { checkHistory } from './history.js'
import { checkLlm } from './llm.js'
import { checkVersionMigrations } from './migrations.js'
import { checkQueue } from './queue.js'
import { checkServiceOrLock } from './service.js'
import { checkSources } from './sources.js'
import { check, overallStatus, type DoctorCheck, type DoctorReport } from './types.js'

const DATABASE_CHECKS = ['schema_version', 'pgvector', 'embeddings', 'queue', 'sources', 'history', 'backups', 'llm'] as const

export interface DoctorOptions {
  config: Config
  version: string
  brainConfigured: boolean
  /** Opens the brain once (no connect retries: doctor answers now) for all database checks. */
  withBrain: <T>(fn: (db: Database) => Promise<T>) => Promise<T>
  /** The database checks give up after this long (default 30 s), so doctor never hangs. */
  timeoutMs?: number
  /** Check the coding agents brain is installed in on this machine (a local caller only). */
  agents?: AgentsCheckOptions
}

/** The error's own words and its cause's: "Could not connect … (connect ECONNREFUSED …)". */
export function describeFailure(err: unknown): string {
  const envelope = serializeError(err)
  const cause = err instanceof Error ? (err.cause as (Error & { code?: string; errors?: Error[] }) | undefined) : undefined
  const causeText = cause ? cause.message || cause.errors?.[0]?.message || cause.code || '' : ''
  const hint = envelope.hint ? ` ${envelope.hint}` : ''
  const message = causeText && !envelope.message.includes(causeText) ? `${envelope.message.replace(/\.$/, '')} (${causeText}).` : envelope.message
  return `${message}${hint}`
}

async function guarded(name: string, run: () => Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await run()
  } catch (err) {
    return check(name, 'fail', `check failed: ${describeFailure(err)}`)
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Thrown when an already-open database (the resident service's) stops answering. */
class DatabaseSilent extends Error {}

async function connectionOrThrow(db: Database, engine: string): Promise<DoctorCheck> {
  try {
    return await checkConnection(db, engine)
  } catch (err) {
    throw new DatabaseSilent(`${engine} at ${db.location} does not answer: ${err instanceof Error ? err.message : String(err)}`)
  }
}

function notChecked(reason: string): DoctorCheck[] {
  return DATABASE_CHECKS.map((name) => check(name, 'warn', `not checked: ${reason}`))
}

async function databaseChecks(options: DoctorOptions): Promise<DoctorCheck[]> {
  if (!options.brainConfigured) {
    return [check('database', 'fail', `no brain is configured in ${options.config.home}; create one with \`brain init\` (or \`brain init --url <postgres-url>\`)`), ...notChecked('no brain')]
  }
  const engine = options.config.engine.kind
  try {
    return await withTimeout(
      options.withBrain(async (db) => [
        await connectionOrThrow(db, engine),
        await guarded('schema_version', () => checkSchema(db)),
        await guarded('pgvector', () => checkPgvector(db)),
        await guarded('embeddings', () => checkEmbeddings(db, options.config)),
        await guarded('queue', () => checkQueue(db, db.capabilities)),
        await guarded('sources', () => checkSources(db)),
        await guarded('history', () => checkHistory(db)),
        await guarded('backups', () => checkBackups(db, options.config.home)),
        await guarded('llm', () => checkLlm(db, options.config)),
      ]),
      options.timeoutMs ?? 30_000,
    )
  } catch (err) {
    const message = err instanceof DatabaseSilent ? err.message : `${engine}: ${describeFailure(err)}`
    return [check('database', 'fail', message), ...notChecked('the database is unreachable')]
  }
}

/** Every check, in a fixed order; the overall status is the worst of them. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const agents = options.agents === undefined ? [] : await checkAgents(options.agents).catch((err: unknown) => [check('agents', 'warn', `check failed: ${describeFailure(err)}`)])
  const checks = [checkServiceOrLock(options.config, options.version), ...(await databaseChecks(options)), checkVersionMigrations(options.config.home, options.version), ...agents]
  return { status: overallStatus(checks), checks }
}
