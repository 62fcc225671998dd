/**
 * Starts the real `brain serve --http` in a child process against a PostgreSQL database and
 * talks to it with real HTTP requests. The child's output goes to a log file, never to the
 * test runner's streams; tests stop it by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Test } from 'tap'
import { createToken, type TokenScope } from '../../src/auth/index.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/types.js'
import { BRAIN_BIN, suiteEnv } from '../helpers/cli.js'
import { freePort } from '../helpers/pg-cluster.js'

export interface ServeProcess {
  base: string
  port: number
  child: ChildProcess
  home: string
  exited: Promise<number | null>
  log(): string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export function pgOptions(url: string) {
  return { url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
}

export async function openDb(url: string): Promise<Database> {
  return openPostgres(pgOptions(url))
}

export async function makeToken(url: string, name: string, scopes: TokenScope[] = ['read', 'write']): Promise<string> {
  const db = await openDb(url)
  try {
    return (await createToken(db, name, scopes)).token
  } finally {
    await db.close()
  }
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch {
      // Not yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** `args` are added to `serve --http --port <port>`; `env` may name its own BRAIN_HOME. */
export async function startServe(databaseUrl: string, env: Record<string, string> = {}, args: string[] = []): Promise<ServeProcess> {
  const home = mkdtempSync(join(tmpdir(), 'brain-http-'))
  const port = await freePort()
  const logPath = join(home, 'serve.log')
  const fd = openSync(logPath, 'a')
  const child = spawn(process.execPath, [BRAIN_BIN, 'serve', '--http', '--port', String(port), ...args], {
    env: { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_DATABASE_URL: databaseUrl, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', ...suiteEnv(), ...env },
    stdio: ['ignore', fd, fd],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const base = `http://127.0.0.1:${port}`
  const log = (): string => readFileSync(logPath, 'utf8')
  await waitFor(async () => {
    if (child.exitCode !== null) throw Object.assign(new Error(`serve exited early: ${log()}`), { fatal: true })
    return (await fetch(`${base}/health`)).ok ? true : undefined
  }, 'serve --http to answer /health').catch((err: Error) => {
    child.kill('SIGKILL')
    throw new Error(`${err.message}\n${log()}`)
  })
  return {
    base,
    port,
    child,
    home,
    exited,
    log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  json<T = Record<string, unknown>>(): T
}

/** One HTTP request with full control over headers and body (chunked when no length is given). */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: Array<string | Buffer> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (d: Buffer) => parts.push(d))
      res.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk)
      req.end()
    } else req.end(options.body)
  })
}

export function mcpHeaders(token: string | null, extra: Record<string, string> = {}): Record<string, string> {
  return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...extra }
}

export function toolCall(name: string, args: unknown, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
}

export async function auditRows(url: string): Promise<Array<Record<string, unknown>>> {
  const db = await openDb(url)
  try {
    return (await db.query('SELECT token_id, client_ip, route, method, tool_name, status, error_code FROM mcp_request_log ORDER BY id')).rows
  } finally {
    await db.close()
  }
}

/** A real MCP SDK client of a served brain's /mcp with a bearer token, closed when the test ends. */
export async function httpClient(t: Test, server: ServeProcess, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } })
  const client = new Client({ name: 'brain-test', version: '1' })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}
