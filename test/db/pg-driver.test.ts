// test-runner: shares a process
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import t from 'tap'
import { isLostConnection, openPostgres } from '../../src/db/pg-driver.js'
import { createPgDatabase } from '../helpers/engines.js'
import { stopChild } from '../helpers/processes.js'

t.test('session timeouts arrive as start-up parameters on every connection', async (t) => {
  const created = await createPgDatabase({ migrated: false })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 123_000, idleTxTimeoutMs: 45_000, clientCheckIntervalMs: 5_000, retryConnect: false })
  t.teardown(async () => {
    await db.close()
    await created.drop()
  })
  const { rows } = await db.query<Record<string, string>>(
    `SELECT current_setting('statement_timeout') AS st, current_setting('idle_in_transaction_session_timeout') AS idle,
            current_setting('client_connection_check_interval') AS cc`,
  )
  t.same(rows[0], { st: '123s', idle: '45s', cc: '5s' })
  const inTx = await db.transaction((tx) => tx.query<{ st: string }>(`SELECT current_setting('statement_timeout') AS st`))
  t.equal(inTx.rows[0]!.st, '123s', 'pooled transaction connections carry them too')
})

t.test('an idle connection is kept for the next statement and never keeps a process alive', async (t) => {
  const created = await createPgDatabase({ migrated: false })
  t.teardown(() => created.drop())
  const options = { url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
  const pidOf = async (db: Awaited<ReturnType<typeof openPostgres>>): Promise<number> => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
  const kept = await openPostgres(options)
  const brief = await openPostgres({ ...options, idleConnectionMs: 20 })
  t.teardown(async () => {
    await kept.close()
    await brief.close()
  })
  const keptPid = await pidOf(kept)
  const briefPid = await pidOf(brief)
  // The brief pool's connection is gone once the server no longer lists it; the kept one idles as long.
  const gone = async (): Promise<boolean> => (await kept.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [briefPid])).rows.length === 0
  for (let tries = 0; tries < 600 && !(await gone()); tries++) await new Promise((resolve) => setTimeout(resolve, 50))
  t.ok(await gone(), 'a connection idle past its time is closed')
  t.equal(await pidOf(kept), keptPid, 'the default keeps it: the same server process answers')
  t.not(await pidOf(brief), briefPid)

  // A process that leaves its connection idle and never closes the pool still ends on its own,
  // long before the idle time is up.
  const driver = new URL('../../src/db/pg-driver.js', import.meta.url).href
  const script = `const { openPostgres } = await import(${JSON.stringify(driver)}); const db = await openPostgres(${JSON.stringify(options)}); await db.query('SELECT 1')`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' })
  t.teardown(() => stopChild(child))
  let guard: NodeJS.Timeout | undefined
  const ended = await Promise.race([
    once(child, 'exit').then(([code]) => code as number | null),
    new Promise<'still running'>((resolve) => (guard = setTimeout(() => resolve('still running'), 120_000))),
  ])
  clearTimeout(guard)
  t.equal(ended, 0, 'the process exited by itself')
})

t.test('int8 and numeric come back as numbers, like the embedded engine', async (t) => {
  const created = await createPgDatabase({ migrated: false })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(async () => {
    await db.close()
    await created.drop()
  })
  const { rows } = await db.query<{ n: number; d: number }>(`SELECT count(*) AS n, 1.5::numeric AS d FROM pg_class`)
  t.type(rows[0]!.n, 'number')
  t.equal(rows[0]!.d, 1.5)
})

t.test('a server without pgvector is refused with an error naming the extension', async (t) => {
  const { migrate } = await import('../../src/db/migrate.js')
  const created = await createPgDatabase({ migrated: false })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(async () => {
    await db.close()
    await created.drop()
  })
  // Simulate a server lacking the extension by hiding it from pg_available_extensions.
  await db.exec(`CREATE SCHEMA shadow; CREATE VIEW shadow.pg_available_extensions AS SELECT * FROM pg_catalog.pg_available_extensions WHERE name <> 'vector'`)
  await db.exec(`ALTER DATABASE ${new URL(created.url).pathname.slice(1)} SET search_path = shadow, pg_catalog, public`)
  const fresh = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(() => fresh.close())
  await t.rejects(migrate(fresh), { code: 'pgvector_missing', message: /pgvector/ })
})

t.test('an unreachable server fails with database_unreachable, without retries when they are off', async (t) => {
  let retries = 0
  await t.rejects(openPostgres({ url: 'postgres://nobody@127.0.0.1:1/none', statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false, onRetry: () => retries++ }), {
    code: 'database_unreachable',
    errorClass: 'DatabaseError',
  })
  t.equal(retries, 0, 'no retry with retry off')
})

t.test('malformed URLs are refused before connecting', async (t) => {
  await t.rejects(openPostgres({ url: 'not a url', statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }), { code: 'invalid_database_url' })
  await t.rejects(openPostgres({ url: 'mysql://u@h/db', statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }), { code: 'invalid_database_url' })
})

t.test('a connection the server ended is told from an error of the statement', async (t) => {
  t.ok(isLostConnection(new Error('Connection terminated unexpectedly')), 'node-postgres: the socket ended under a query')
  t.ok(isLostConnection(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), 'a server shutting down')
  t.ok(isLostConnection(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })), 'a server not yet back')
  t.notOk(isLostConnection(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })), 'an error of the statement')
  t.notOk(isLostConnection(new Error('something else')), 'any other plain error')
})

t.test('a connection killed under a statement is database_connection_lost, and the next read works', async (t) => {
  const created = await createPgDatabase({ migrated: false })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false, maxConnections: 2 })
  t.teardown(async () => {
    await db.close()
    await created.drop()
  })
  const other = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(() => other.close())
  const cut = db
    .transaction((tx) => tx.query('SELECT pg_sleep(5)'))
    .then(
      () => null,
      (err: unknown) => err,
    )
  const sleeper = "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = 'SELECT pg_sleep(5)'"
  while ((await other.query<{ ended: boolean }>(sleeper)).rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
  t.match(await cut, { code: 'database_connection_lost', hint: /Run the command again/ })
  t.same((await db.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }], 'the pool hands out a working connection')
})

t.test('a transaction whose connection drops under a statement without a word from the server is database_connection_lost, not a crash', async (t) => {
  const created = await createPgDatabase({ migrated: false })
  const server = new URL(created.url)
  // A relay in front of the server, to drop connections as a crashed server or a cut network does: no error message, the socket just ends.
  const sockets = new Set<Socket>()
  const relay = createServer((client) => {
    const upstream = connect(Number(server.port), server.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.on('close', () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const address = relay.address()
  const relayed = new URL(created.url)
  relayed.port = String(typeof address === 'object' && address ? address.port : 0)
  const db = await openPostgres({ url: relayed.toString(), statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false, maxConnections: 2 })
  const other = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(async () => {
    await db.close()
    await other.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => relay.close(resolve))
    await created.drop()
  })
  const cut = db
    .transaction((tx) => tx.query('SELECT pg_sleep(5)'))
    .then(
      () => null,
      (err: unknown) => err,
    )
  const sleeping = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT pg_sleep(5)' AND state = 'active'"
  while ((await other.query(sleeping)).rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
  for (const socket of sockets) socket.destroy()
  t.match(await cut, { code: 'database_connection_lost' })
  t.same((await db.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }], 'the pool hands out a working connection')
})
