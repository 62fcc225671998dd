/**
 * A thin-client install (`brain init --remote`) running CLI commands against a real
 * `brain serve --http`.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runBrain, stopService } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, startServe } from './helpers.js'

t.test('capture, put, get, list, search, query and jobs run on the remote brain', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const token = await makeToken(created.url, 'thin')
  const home = mkdtempSync(join(tmpdir(), 'brain-thin-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }
  const brain = (args: string[], input?: string) => runBrain(args, env, input)

  const refused = await brain(['init', '--remote', server.base.replace('http:', 'ftp:'), '--token', token, '--json'])
  t.match(refused.json(), { error: { code: 'remote_requires_https' } })
  const badToken = await brain(['init', '--remote', server.base, '--token', 'brain_wrong', '--json'])
  t.equal(badToken.code, 1)
  t.match(badToken.json(), { error: { code: 'remote_unauthorized', hint: /auth create/ } })

  const init = await brain(['init', '--remote', server.base, '--token', token, '--json'])
  t.equal(init.code, 0, init.stderr)
  t.match(init.json(), { url: `${server.base}/mcp`, engine: 'postgres', pages: 0 })
  t.equal(statSync(join(home, 'config.json')).mode & 0o777, 0o600, 'the token is stored in a private file')
  t.match(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')), { remote: { url: `${server.base}/mcp`, token } })

  const captured = await brain(['capture', 'the', 'quokka', 'migration', 'plan', '--no-embed', '--json'])
  t.equal(captured.code, 0, captured.stderr)
  t.match(captured.json(), { status: 'created', slug: /^inbox\//, ingested_via: 'mcp:put_page', title: 'the quokka migration plan' })
  const quiet = await brain(['capture', 'second', 'quokka', 'thought', '--no-embed', '--quiet'])
  t.match(quiet.stdout, /^inbox\/\S+\n$/)

  const put = await brain(['put', 'notes/remote', '--no-embed', '--no-json'], '# Remote\n\nquokka written remotely\n')
  t.match(put.stdout, /^created notes\/remote \(1 chunks\)/)
  const got = await brain(['get', 'notes/remote', '--no-json'])
  t.match(got.stdout, /title: Remote[\s\S]*quokka written remotely/)
  const listed = await brain(['list', '--json'])
  t.equal(listed.json<unknown[]>().length, 3)
  const found = await brain(['search', 'quokka', 'remotely', '--no-json'])
  t.match(found.stdout, /^\[\d\.\d{4}\] notes\/remote -- /)
  const asked = await brain(['query', 'quokka', '--json'])
  t.ok(asked.json<{ results: unknown[] }>().results.length >= 1)
  const defs = await brain(['code-def', 'noSuchFunction', '--json'])
  t.same(defs.json(), [], 'code-def runs remotely')
  const callers = await brain(['code-callers', 'noSuchFunction', '--no-json'])
  t.match(callers.stdout, /not defined in the brain/)
  const jobs = await brain(['jobs', 'list', '--json'])
  t.equal(jobs.code, 0, jobs.stderr)

  // As a person runs it, without BRAIN_NO_SERVICE: the command reaches the server from its own
  // process, and no local service or database appears.
  t.teardown(() => stopService(home))
  const plain = await runBrain(['list', '--json'], { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0' })
  t.equal(plain.code, 0, plain.stderr)
  t.equal(plain.json<unknown[]>().length, 3, 'the remote pages, listed without a local service')
  t.same(
    readdirSync(home).filter((name) => name === 'db' || name === 'brain.sock' || name.startsWith('service')),
    [],
    'no local database and no local service',
  )

  const missing = await brain(['get', 'notes/absent', '--json'])
  t.equal(missing.code, 1)
  t.match(missing.json(), { error: { class: 'NotFoundError', code: 'page_not_found', hint: /\S/ } }, 'the remote envelope comes through')

  const local = await runBrain(['list', '--json'], { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-local-')), BRAIN_DATABASE_URL: created.url, BRAIN_NO_SERVICE: '1' })
  t.same(local.json(), listed.json(), 'same output as the local command')
})
