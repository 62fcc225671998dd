/**
 * `brain init --remote <url>` without a token: the thin client signs in through the browser
 * flow against a real `serve --http` (the test is the browser and the owner), keeps its
 * refresh token in a private file, and refreshes on its own when the access token expires.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runBrain, spawnBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, openDb, startServe, waitFor } from './helpers.js'

t.test('browser sign-in, calls, refresh, and a revoked client', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const owner = await makeToken(created.url, 'owner', ['admin'])
  const home = mkdtempSync(join(tmpdir(), 'brain-thin-oauth-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }

  const child = spawnBrain(['init', '--remote', server.base, '--no-browser', '--json'], env)
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stderr = ''
  let stdout = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const authorizeUrl = await waitFor(async () => /(http:\/\/\S+\/authorize\?\S+)/.exec(stderr)?.[1], 'the consent page address on stderr')

  // The owner's browser: the consent page, the approval, then the redirect to the loopback listener.
  const page = await fetch(authorizeUrl)
  t.equal(page.status, 200)
  const html = await page.text()
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))]),
  )
  const approved = await fetch(`${server.base}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: /^(brain_oauth_csrf=[^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1]! },
    body: new URLSearchParams({ ...fields, owner_token: owner, decision: 'approve' }),
  })
  t.equal(approved.status, 302)
  const callback = approved.headers.get('location')!
  t.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/, 'a loopback redirect')
  t.equal((await fetch(callback)).status, 200, 'the CLI took the code')
  t.equal(await exited, 0, stderr)
  t.match(JSON.parse(stdout), { url: `${server.base}/mcp`, auth: 'oauth', engine: 'postgres', pages: 0 })

  const credentials = join(home, 'oauth.json')
  t.equal(statSync(credentials).mode & 0o777, 0o600, 'the refresh token is kept in a private file')
  const stored = JSON.parse(readFileSync(credentials, 'utf8')) as { tokens: { access_token: string; refresh_token: string } }
  t.match(stored.tokens, { access_token: /^boa_/, refresh_token: /^bor_/ })
  const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { remote: Record<string, unknown> }
  t.same(config.remote, { url: `${server.base}/mcp`, auth: 'oauth' }, 'config.json holds no token')

  const put = await runBrain(['put', 'notes/thin-oauth', '--json'], env, '# Thin\n\nsigned in with OAuth\n')
  t.equal(put.code, 0, put.stderr)
  const db = await openDb(created.url)
  t.teardown(() => db.close())
  await db.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'access'`)
  const got = await runBrain(['get', 'notes/thin-oauth', '--json'], env)
  t.equal(got.code, 0, got.stderr)
  t.match(got.stdout, /signed in with OAuth/, 'an expired access token is refreshed on the way')
  const rotated = JSON.parse(readFileSync(credentials, 'utf8')) as { tokens: { refresh_token: string } }
  t.not(rotated.tokens.refresh_token, stored.tokens.refresh_token, 'and the rotated refresh token is stored')
  t.equal(statSync(credentials).mode & 0o777, 0o600)

  await db.query('UPDATE oauth_clients SET revoked_at = now()')
  const refused = await runBrain(['get', 'notes/thin-oauth', '--json'], env)
  t.equal(refused.code, 1)
  t.match(refused.stdout + refused.stderr, /remote_sign_in_expired|remote_unauthorized/, 'a revoked client is told to sign in again')
})
