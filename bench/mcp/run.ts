/**
 * bench/mcp: `tools/call search` over HTTP against a real `brain serve --http` on the server
 * engine, with the 10,000-page search corpus: many concurrent clients, every request through
 * the whole pipeline (rate buckets, body cap, bearer lookup, dispatch, audit row).
 *
 *   node dist/bench/mcp/run.js [--pages N] [--requests N] [--clients N] [--default-limits] [--distinct] [--keep-db] [--auth static|oauth|both] [--json]
 *
 * Without --default-limits the rate buckets are raised so the figures measure the server, not
 * the limiter; with it, 429s are expected (all clients share one address and one token) and
 * counted separately. Every request must leave exactly one audit row. --keep-db keeps the loaded
 * database (named by page count) for the next run instead of loading the corpus again.
 * --auth picks the credential: a static token (default), an OAuth access token minted by the
 * server's /token (client_credentials), or both, alternating static, oauth, static, oauth on one
 * server so that the two are measured under the same load.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, openSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createToken } from '../../src/auth/index.js'
import { registerClient } from '../../src/oauth/index.js'
import { openDatabase } from '../../src/db/open.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { freePort, startPgCluster, type PgCluster } from '../../test/helpers/pg-cluster.js'
import { percentile } from '../retrieval/metrics.js'
import { DEFAULT_SCALE, scaleQueries, writeScaleCorpus } from '../search/corpus.js'

const engineDefaults = { statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
const TARGET_P95_MS = 50

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}

interface Sample {
  /** Position in the request sequence. */
  index: number
  ms: number
  status: number
  toolError: boolean
}

async function loadDatabase(admin: string, pages: number, keep: boolean): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = keep ? `brain_bench_mcp_kept_${pages}` : `brain_bench_mcp_${process.pid}`
  const url = admin.replace(/\/[^/]*$/, `/${name}`)
  const adminDb = await openPostgres({ url: admin, ...engineDefaults })
  const kept = keep && (await adminDb.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length > 0
  if (!kept) {
    await adminDb.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await adminDb.exec(`CREATE DATABASE ${name}`)
  }
  await adminDb.close()
  if (kept) return { url, drop: async () => {} }
  const db = await openDatabase({ kind: 'postgres', dataDir: '', url, ...engineDefaults })
  await db.exec('DROP INDEX IF EXISTS content_chunks_embedding_hnsw_idx')
  await writeScaleCorpus(db, createEmbeddingProvider({ provider: 'local' }), { ...DEFAULT_SCALE, pages, onProgress: (done) => process.stderr.write(`\r  loaded ${done}/${pages} pages`) })
  process.stderr.write('\n')
  await db.exec('CREATE INDEX content_chunks_embedding_hnsw_idx ON content_chunks USING hnsw (embedding vector_cosine_ops)')
  await db.exec('ANALYZE')
  await db.close()
  return {
    url,
    drop: async () => {
      if (keep) return
      const again = await openPostgres({ url: admin, ...engineDefaults })
      await again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.close()
    },
  }
}

async function startServer(url: string, home: string, defaultLimits: boolean): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const log = openSync(join(home, 'serve.log'), 'a')
  const limits = defaultLimits ? {} : { BRAIN_HTTP_IP_BURST: '1000000', BRAIN_HTTP_TOKEN_BURST: '1000000' }
  // BRAIN_BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof") profiles the server under the same load.
  const nodeArgs = (process.env.BRAIN_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '')
  const child = spawn(process.execPath, [...nodeArgs, join(packageRoot(), 'bin', 'brain.js'), 'serve', '--http', '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_DATABASE_URL: url, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', ...limits },
    stdio: ['ignore', log, log],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok)
        return {
          base,
          stop: async () => {
            child.kill('SIGTERM')
            await exited
          },
        }
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error('serve --http did not start; see serve.log')
}

/** One POST over a kept-alive connection of `agent`; resolves to the status and body. */
function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (part: Buffer) => parts.push(part))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * The clients share the server's two cores, so they use node:http with kept-alive connections
 * (about half the CPU per request of fetch): what the figures measure should be the server.
 */
async function drive(base: string, token: string, queries: readonly string[], total: number, clients: number): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = []
  const agent = new Agent({ keepAlive: true, maxSockets: clients })
  const url = new URL(`${base}/mcp`)
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }
  let next = 0
  const started = performance.now()
  async function client(): Promise<void> {
    for (let i = next++; i < total; i = next++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search', arguments: { query: queries[i % queries.length], limit: 10 } } })
      const t0 = performance.now()
      const res = await post(agent, url, headers, body)
      const ms = performance.now() - t0
      const toolError = res.status === 200 && (JSON.parse(res.text) as { result?: { isError?: boolean } }).result?.isError === true
      samples.push({ index: i, ms, status: res.status, toolError })
    }
  }
  try {
    await Promise.all(Array.from({ length: clients }, client))
  } finally {
    agent.destroy()
  }
  return { samples, seconds: (performance.now() - started) / 1000 }
}

type AuthKind = 'static' | 'oauth'

function authKinds(): AuthKind[] {
  const i = process.argv.indexOf('--auth')
  const value = i === -1 ? 'static' : process.argv[i + 1]
  if (value === 'both') return ['static', 'oauth', 'static', 'oauth', 'static', 'oauth']
  if (value === 'static' || value === 'oauth') return [value]
  throw new Error('--auth takes static, oauth or both')
}

/** An OAuth access token the server itself issues: client_credentials of a read-only client. */
async function oauthToken(db: Awaited<ReturnType<typeof openDatabase>>, base: string): Promise<string> {
  const { client, clientSecret } = await registerClient(db, {
    name: `bench-${process.pid}`,
    redirectUris: [],
    scopes: ['read'],
    grantTypes: ['client_credentials'],
    authMethod: 'client_secret_basic',
    registeredBy: 'cli',
  })
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${client.clientId}:${clientSecret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  })
  const body = (await res.json()) as { access_token?: string }
  if (!body.access_token) throw new Error(`/token refused the bench client: ${JSON.stringify(body)}`)
  return body.access_token
}

async function main(): Promise<void> {
  const pages = flag('--pages', DEFAULT_SCALE.pages)
  const total = flag('--requests', 2000)
  const clients = flag('--clients', 20)
  const defaultLimits = process.argv.includes('--default-limits')
  const kinds = authKinds()
  let cluster: PgCluster | undefined
  const admin = process.env.BRAIN_BENCH_PG_URL ?? (cluster = await startPgCluster()).adminUrl
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-mcp-'))
  const { url, drop } = await loadDatabase(admin, pages, process.argv.includes('--keep-db'))
  try {
    const db = await openDatabase({ kind: 'postgres', dataDir: '', url, ...engineDefaults })
    const { token: staticToken } = await createToken(db, `bench-${process.pid}`, ['read'])
    const server = await startServer(url, home, defaultLimits)
    try {
      const tokens: Record<AuthKind, string> = { static: staticToken, oauth: kinds.includes('oauth') ? await oauthToken(db, server.base) : '' }
      // --distinct: every request asks a question no earlier request asked, so none is answered
      // from kept results; otherwise the search benchmark's mix of 100 questions repeats.
      const distinct = process.argv.includes('--distinct')
      const pool = distinct ? [...new Set(scaleQueries(3 * (total + 50)))].slice(0, total + 50) : scaleQueries(150)
      const queries = distinct ? pool.slice(0, total) : pool.slice(0, 100)
      if (!process.argv.includes('--json')) {
        process.stdout.write(
          '| auth | pages | requests | clients | questions | limits | req/s | p50 ms | p95 ms | max ms | ok | 429 | errors | audit rows |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
        )
      }
      // Compared rounds must see the same server: the first pass over the questions ranks them,
      // later ones find kept results, so that pass is made before any round is timed.
      if (kinds.length > 1 && !distinct) await drive(server.base, tokens.static, queries, queries.length, clients)
      const p95s: Record<AuthKind, number[]> = { static: [], oauth: [] }
      for (const kind of kinds) {
        const token = tokens[kind]
        await drive(server.base, token, pool.slice(-50), 50, 5) // warm-up on other questions: connections, plans
        await db.exec('TRUNCATE mcp_request_log')
        const { samples, seconds } = await drive(server.base, token, queries, total, clients)
        const rows = Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM mcp_request_log')).rows[0]!.n)
        const ok = samples.filter((s) => s.status === 200 && !s.toolError)
        const limited = samples.filter((s) => s.status === 429).length
        const errors = samples.length - ok.length - limited
        const okMs = ok.map((s) => s.ms)
        const result = {
          auth: kind,
          pages,
          requests: total,
          clients,
          defaultLimits,
          distinct,
          seconds: Number(seconds.toFixed(2)),
          requestsPerSecond: Math.round(total / seconds),
          p50: Number(percentile(okMs, 0.5).toFixed(1)),
          p95: Number(percentile(okMs, 0.95).toFixed(1)),
          max: Number(Math.max(...okMs).toFixed(1)),
          ok: ok.length,
          rateLimited: limited,
          errors,
          auditRows: rows,
          missingAuditRows: total - rows,
          targetP95Met: percentile(okMs, 0.95) <= TARGET_P95_MS,
          // After each question has been asked once: what a server that has been running sees.
          p95AfterFirstPass: Number(
            percentile(
              ok.filter((s) => s.index >= queries.length).map((s) => s.ms),
              0.95,
            ).toFixed(1),
          ),
        }
        p95s[kind].push(result.p95)
        if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(result) + '\n')
        else {
          process.stdout.write(
            `| ${kind} | ${pages} | ${total} | ${clients} | ${distinct ? 'all distinct' : '100, repeated'} | ${defaultLimits ? 'default' : 'raised'} | ${result.requestsPerSecond} | ${result.p50} | ${result.p95} | ${result.max} | ${result.ok} | ${limited} | ${errors} | ${rows}/${total} |\n`,
          )
        }
        if (errors > 0 || rows !== total) process.exitCode = 1
      }
      if (kinds.length > 1 && !process.argv.includes('--json')) {
        const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
        const gap = median(p95s.oauth) - median(p95s.static)
        process.stdout.write(`median p95: static ${median(p95s.static)} ms, oauth ${median(p95s.oauth)} ms (oauth − static ${gap.toFixed(1)} ms; target ≤ 2 ms: ${gap <= 2 ? 'met' : 'NOT met'})\n`)
      }
      await db.close()
    } finally {
      await server.stop()
    }
  } finally {
    await drop()
    rmSync(home, { recursive: true, force: true })
    cluster?.stop()
  }
}

await main()
