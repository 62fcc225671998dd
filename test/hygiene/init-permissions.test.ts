import { randomBytes } from 'node:crypto'
import t from 'tap'
import { openPostgres } from '../../src/db/pg-driver.js'
import { migrate, type Migration } from '../../src/db/migrate.js'
import { runBrain } from '../helpers/cli.js'
import { clusterAdminUrl, engineTest } from '../helpers/engines.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface Envelope {
  error: { class: string; code: string; hint: string; message: string }
}

const pgOptions = (url: string) => ({ url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })

async function asAdmin(sql: string, database = 'postgres'): Promise<void> {
  const url = (await clusterAdminUrl()).replace(/\/[^/]*$/, `/${database}`)
  const admin = await openPostgres(pgOptions(url))
  try {
    await admin.exec(sql)
  } finally {
    await admin.close()
  }
}

t.test('brain init --url as a role that may not CREATE EXTENSION vector says so in plain words', async (t) => {
  const suffix = randomBytes(5).toString('hex')
  const role = `brain_plain_${suffix}`
  const database = `brain_perm_${suffix}`
  await asAdmin(`CREATE ROLE ${role} LOGIN NOSUPERUSER`)
  await asAdmin(`CREATE DATABASE ${database} OWNER ${role}`)
  t.teardown(async () => {
    await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await asAdmin(`DROP ROLE IF EXISTS ${role}`)
  })
  const url = (await clusterAdminUrl()).replace(/^postgres:\/\/[^@]*@/, `postgres://${role}@`).replace(/\/[^/]*$/, `/${database}`)
  const env = { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-perm-')), BRAIN_EMBEDDING_PROVIDER: 'local' }
  const refused = await runBrain(['init', '--url', url, '--no-retry-connect'], env)
  t.equal(refused.code, 1, refused.stderr)
  const error = refused.json<Envelope>().error
  t.match(error, { class: 'DatabaseError', code: 'vector_extension_permission' })
  t.match(error.message, new RegExp(`role "${role}" may not create the extension "vector" in database "${database}".*superuser`))
  t.match(error.hint, /`CREATE EXTENSION vector;`/)
  t.match(error.hint, new RegExp(`database "${database}"`))
  t.notMatch(refused.stdout + refused.stderr, /\n\s+at /, 'no stack trace')
  const human = await runBrain(['init', '--url', url, '--no-retry-connect', '--no-json'], env)
  t.match(human.stderr, /may not create the extension "vector"/)
  t.match(human.stderr, /CREATE EXTENSION vector;/)

  await asAdmin('CREATE EXTENSION vector', database)
  const done = await runBrain(['init', '--url', url, '--no-retry-connect'], env)
  t.equal(done.code, 0, `after a superuser created the extension, init works: ${done.stdout}${done.stderr}`)
})

engineTest(t, 'a failing migration shows the database message and SQLSTATE', async (t, { db }) => {
  const broken: Migration = { version: 9990, name: 'broken', sql: 'CREATE TABLE broken_one (id int);\nSELEC 1;', requires: [] }
  const err = await migrate(db, [broken]).catch((e: unknown) => e)
  t.match(err, { errorClass: 'DatabaseError', code: 'migration_failed', message: /^Migration 9990 \(broken\) failed: .*syntax error.*\(SQLSTATE 42601\)$/ })
  const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('broken_one') IS NOT NULL AS present`)
  t.equal(rows[0]!.present, false, 'nothing of the failed migration was applied')
})
