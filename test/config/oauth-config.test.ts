// test-runner: shares a process
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'

const home = () => mkdtempSync(join(tmpdir(), 'brain-cfg-oauth-'))

t.test('OAuth defaults: registration on, 1 h access, 30 d refresh, audience from the request', async (t) => {
  const dir = home()
  const { oauth } = loadConfig({ env: { BRAIN_HOME: dir } }).http
  t.same(oauth, { registration: true, publicUrl: null, accessTtlMs: 3_600_000, refreshTtlMs: 30 * 24 * 3_600_000 })
})

t.test('environment and config file', async (t) => {
  const dir = home()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ oauth: { registration: false, public_url: 'https://file.example/ignored/path' }, remote: { url: 'https://b.example/mcp', auth: 'oauth' } }))
  const fromFile = loadConfig({ env: { BRAIN_HOME: dir } })
  t.same(fromFile.http.oauth.registration, false, 'config.json oauth.registration=false')
  t.equal(fromFile.http.oauth.publicUrl, 'https://file.example', 'the public URL is reduced to its origin')
  t.same(fromFile.remote, { url: 'https://b.example/mcp', token: null, credentialsFile: join(dir, 'oauth.json') }, 'an OAuth thin client has no token in config')
  const fromEnv = loadConfig({ env: { BRAIN_HOME: dir, BRAIN_OAUTH_REGISTRATION: '1', BRAIN_HTTP_PUBLIC_URL: 'http://127.0.0.1:8787', BRAIN_OAUTH_ACCESS_TTL: '5min' } })
  t.equal(fromEnv.http.oauth.registration, true, 'the environment wins')
  t.equal(fromEnv.http.oauth.publicUrl, 'http://127.0.0.1:8787')
  t.equal(fromEnv.http.oauth.accessTtlMs, 300_000)
  t.equal(loadConfig({ env: { BRAIN_HOME: dir, BRAIN_OAUTH_REGISTRATION: 'off' } }).http.oauth.registration, false)
  t.throws(() => loadConfig({ env: { BRAIN_HOME: dir, BRAIN_HTTP_PUBLIC_URL: 'brain.example' } }), { code: 'invalid_public_url' })
  t.throws(() => loadConfig({ env: { BRAIN_HOME: dir, BRAIN_HTTP_PUBLIC_URL: 'ftp://brain.example' } }), { code: 'invalid_public_url' })
})
