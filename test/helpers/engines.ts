/**
 * The one engine suite: each engine test runs against PGLite and against a real PostgreSQL with
 * pgvector. Every test gets a fresh, migrated database: PGLite from a dumped template, PostgreSQL
 * from a template database (CREATE DATABASE … TEMPLATE).
 */
import { randomBytes } from 'node:crypto'
import type { Pool as PgPool } from 'pg'
import type { Test } from 'tap'
import { openPglite } from '../../src/db/pglite-driver.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import { migrate } from '../../src/db/migrate.js'
import { readEmptyTemplate } from '../../src/db/template.js'
import type { Database } from '../../src/db/types.js'
import { startPgCluster, type PgCluster } from './pg-cluster.js'
import { profiled } from './profile.js'
import { registerHandlers } from '../../src/queue/handler.js'
import { defaultResolver } from '../../workers/registry.js'

// Tests are a composition root too: jobs they run in-process find the real handlers.
registerHandlers(defaultResolver)

export type EngineName = 'pglite' | 'postgres'
/** Both engines, or those named in BRAIN_TEST_ENGINES (`pglite` for a fast inner loop). */
export const ENGINES: readonly EngineName[] = (['pglite', 'postgres'] as const).filter((engine) => (process.env.BRAIN_TEST_ENGINES ?? 'pglite,postgres').split(',').includes(engine))

export interface TestDatabase {
  engine: EngineName
  db: Database
  /** Connection URL (server engine only). */
  url: string | null
}

let pgliteTemplate: Promise<Blob> | undefined
let ownCluster: Promise<PgCluster> | undefined

async function makePgliteTemplate(): Promise<Blob> {
  // The build's snapshot of an empty, migrated brain, when it matches the migrations on disk.
  const built = readEmptyTemplate()
  if (built) return built
  const db = await openPglite({ dataDir: 'memory', memory: true })
  await migrate(db)
  const dump = await db.dumpDataDir!()
  await db.close()
  return dump
}

function pgOptions(url: string) {
  return { url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
}

/** The admin URL of the shared cluster from scripts/test.sh, or of one this process starts. */
export async function clusterAdminUrl(): Promise<string> {
  const fromEnv = process.env.BRAIN_TEST_PG_URL
  if (fromEnv) return fromEnv
  ownCluster ??= startPgCluster().then((cluster) => {
    process.on('exit', () => cluster.stop())
    return cluster
  })
  return (await ownCluster).adminUrl
}

/**
 * Creates an empty database on the test cluster and returns its URL. `icuLocale` makes its
 * default collation that language's (e.g. `en-US`) rather than the cluster's byte order.
 */
export function createPgDatabase(options: { migrated: boolean; icuLocale?: string }): Promise<{ url: string; drop: () => Promise<void> }> {
  return profiled('pgDatabases', () => createDatabase(options))
}

let adminPool: Promise<PgPool> | undefined

/**
 * Runs a statement on the cluster's admin database, through one connection this process keeps for
 * all its databases (a connection costs about 40 ms here, twice per database otherwise). Idle, it
 * does not keep the process alive.
 */
async function adminStatement(sql: string): Promise<void> {
  adminPool ??= clusterAdminUrl().then(async (connectionString) => {
    const pg = (await import('pg')).default
    const pool = new pg.Pool({ connectionString, max: 1, allowExitOnIdle: true })
    // A connection lost while idle is replaced at the next statement.
    pool.on('error', () => undefined)
    return pool
  })
  await (await adminPool).query(sql)
}

async function createDatabase(options: { migrated: boolean; icuLocale?: string }): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = await clusterAdminUrl()
  const name = `brain_t_${randomBytes(6).toString('hex')}`
  const template = options.migrated && options.icuLocale === undefined ? process.env.BRAIN_TEST_PG_TEMPLATE : undefined
  const locale = options.icuLocale === undefined ? '' : ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}' LOCALE 'C.UTF-8'`
  await adminStatement(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}${locale}`)
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`)
  if (options.migrated && !template) {
    const db = await openPostgres(pgOptions(url))
    await migrate(db)
    await db.close()
  }
  return {
    url,
    drop: () => adminStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

export async function openTestDatabase(engine: EngineName): Promise<TestDatabase & { cleanup: () => Promise<void> }> {
  if (engine === 'pglite') {
    pgliteTemplate ??= makePgliteTemplate()
    const template = await pgliteTemplate
    const db = await profiled('pgliteBoots', () => openPglite({ dataDir: 'memory', memory: true, template }))
    return { engine, db, url: null, cleanup: () => db.close() }
  }
  const created = await createPgDatabase({ migrated: true })
  const db = await openPostgres(pgOptions(created.url))
  return {
    engine,
    db,
    url: created.url,
    cleanup: async () => {
      await db.close()
      await created.drop()
    },
  }
}

/** Registers `name [pglite]` and `name [postgres]` subtests, each with a fresh database. */
export function engineTest(t: Test, name: string, fn: (t: Test, ctx: TestDatabase) => Promise<void>): void {
  for (const engine of ENGINES) {
    t.test(`${name} [${engine}]`, async (t) => {
      const ctx = await openTestDatabase(engine)
      t.teardown(ctx.cleanup)
      await fn(t, ctx)
    })
  }
}
