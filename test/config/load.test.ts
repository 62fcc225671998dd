// test-runner: shares a process
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'

const home = () => mkdtempSync(join(tmpdir(), 'brain-cfg-'))

t.test('defaults: embedded engine under BRAIN_HOME, 5 min timeouts, local embeddings', async (t) => {
  const dir = home()
  const config = loadConfig({ env: { BRAIN_HOME: dir } })
  t.equal(config.engine.kind, 'pglite')
  t.equal(config.engine.dataDir, join(dir, 'db'))
  t.equal(config.engine.statementTimeoutMs, 300_000)
  t.equal(config.engine.idleTxTimeoutMs, 300_000)
  t.equal(config.engine.clientCheckIntervalMs, 0, 'client check interval is opt-in')
  t.equal(config.engine.retryConnect, true)
  t.equal(config.embedding.provider, 'local', 'no key: local model')
  t.equal(config.import.maxFencesPerPage, 100)
  t.equal(config.http.maxBodyBytes, 1024 * 1024)
})

t.test('environment overrides: server URL, timeouts, off, retry opt-out, OpenAI key', async (t) => {
  const config = loadConfig({
    env: {
      BRAIN_HOME: home(),
      BRAIN_DATABASE_URL: 'postgres://u@h/db',
      BRAIN_STATEMENT_TIMEOUT: 'off',
      BRAIN_IDLE_TX_TIMEOUT: '30s',
      BRAIN_CLIENT_CHECK_INTERVAL: '10000',
      BRAIN_NO_RETRY_CONNECT: '1',
      OPENAI_API_KEY: 'sk-test',
      BRAIN_MAX_FENCES_PER_PAGE: '7',
    },
  })
  t.equal(config.engine.kind, 'postgres')
  t.equal(config.engine.url, 'postgres://u@h/db')
  t.equal(config.engine.statementTimeoutMs, 0, 'off disables')
  t.equal(config.engine.idleTxTimeoutMs, 30_000)
  t.equal(config.engine.clientCheckIntervalMs, 10_000)
  t.equal(config.engine.retryConnect, false)
  t.equal(config.embedding.provider, 'openai', 'a key selects OpenAI')
  t.equal(config.import.maxFencesPerPage, 7)
  t.equal(loadConfig({ env: { BRAIN_HOME: home(), BRAIN_STATEMENT_TIMEOUT: '0' } }).engine.statementTimeoutMs, 0, '0 disables')
  t.equal(loadConfig({ env: { BRAIN_HOME: home() }, noRetryConnect: true }).engine.retryConnect, false, '--no-retry-connect')
})

t.test('config.json records the engine; the environment wins over it', async (t) => {
  const dir = home()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ engine: 'postgres', database_url: 'postgres://file@h/db' }))
  t.equal(loadConfig({ env: { BRAIN_HOME: dir } }).engine.url, 'postgres://file@h/db')
  t.equal(loadConfig({ env: { BRAIN_HOME: dir, BRAIN_DATABASE_URL: 'postgres://env@h/db' } }).engine.url, 'postgres://env@h/db')
})

t.test('bad values are clear errors', async (t) => {
  t.throws(() => loadConfig({ env: { BRAIN_HOME: home(), BRAIN_STATEMENT_TIMEOUT: 'soon' } }), { code: 'invalid_duration' })
  t.throws(() => loadConfig({ env: { BRAIN_HOME: home(), BRAIN_MAX_FENCES_PER_PAGE: '-1' } }), { code: 'invalid_number' })
  t.throws(() => loadConfig({ env: { BRAIN_HOME: home(), BRAIN_EMBEDDING_PROVIDER: 'magic' } }), { code: 'invalid_embedding_provider' })
  const dir = home()
  writeFileSync(join(dir, 'config.json'), '{not json')
  t.throws(() => loadConfig({ env: { BRAIN_HOME: dir } }), { code: 'config_file_invalid' })
})

t.test('the buffer pool: unset is PostgreSQL’s, set by BRAIN_BUFFER_POOL or memory.buffer_pool, bounded', async (t) => {
  t.equal(loadConfig({ env: { BRAIN_HOME: home() } }).engine.bufferPoolBytes, undefined, 'unset: the engine keeps its 128 MB')
  t.equal(loadConfig({ env: { BRAIN_HOME: home(), BRAIN_BUFFER_POOL: '16' } }).engine.bufferPoolBytes, 16 * 1024 * 1024, 'MiB without a unit')
  const dir = home()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ memory: { buffer_pool: '512MiB' } }))
  t.equal(loadConfig({ env: { BRAIN_HOME: dir } }).engine.bufferPoolBytes, 512 * 1024 * 1024, 'from config.json')
  t.equal(loadConfig({ env: { BRAIN_HOME: dir, BRAIN_BUFFER_POOL: '32MiB' } }).engine.bufferPoolBytes, 32 * 1024 * 1024, 'the environment wins')
  for (const bad of ['off', '0', '512KiB', '2GiB', 'lots']) {
    t.throws(() => loadConfig({ env: { BRAIN_HOME: home(), BRAIN_BUFFER_POOL: bad } }), { code: 'invalid_size' }, bad)
  }
})

t.test('mcp.tools in config.json: a profile or tool names, as a string or a list', async (t) => {
  const withTools = (tools: unknown): string => {
    const dir = home()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ mcp: { tools } }))
    return dir
  }
  t.equal(loadConfig({ env: { BRAIN_HOME: home() } }).mcp.tools, null, 'unset: the serve command serves everything')
  t.equal(loadConfig({ env: { BRAIN_HOME: withTools('memory') } }).mcp.tools, 'memory')
  t.equal(loadConfig({ env: { BRAIN_HOME: withTools(['search', 'get_page']) } }).mcp.tools, 'search,get_page')
  t.throws(() => loadConfig({ env: { BRAIN_HOME: withTools(12) } }), { code: 'invalid_mcp_tools', hint: /memory/ })
  t.throws(() => loadConfig({ env: { BRAIN_HOME: withTools(['search', 3]) } }), { code: 'invalid_mcp_tools' })
})
