/**
 * The real coding agents, for tests that prove what `brain agents install` writes is what they
 * read: where scripts/setup-agent-clients.sh put them, a sandbox of their own files for each,
 * an environment that keeps them off the network, and a way to run one and always stop it.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { processAlive } from '../../src/util/process-alive.js'

export type ClientName = 'claude' | 'codex' | 'gemini' | 'opencode'
export const CLIENTS: readonly ClientName[] = ['claude', 'codex', 'gemini', 'opencode']

/**
 * The folder of the clients' commands, or why there is none. scripts/test.sh sets
 * BRAIN_TEST_AGENT_CLIENTS (and BRAIN_TEST_AGENT_CLIENTS_REQUIRED, so a missing client fails).
 */
export function agentClientsBin(): { bin: string } | { missing: string } {
  const dir = process.env.BRAIN_TEST_AGENT_CLIENTS ?? ''
  const hint = 'run `bash scripts/setup-agent-clients.sh` (scripts/test.sh does) and pass the folder it prints as BRAIN_TEST_AGENT_CLIENTS'
  if (dir === '') return { missing: `the agent clients are not installed: ${hint}` }
  const bin = join(dir, 'node_modules', '.bin')
  const absent = CLIENTS.filter((c) => !existsSync(join(bin, c)))
  if (!existsSync(join(dir, '.complete')) || absent.length > 0) return { missing: `the agent clients in ${dir} are incomplete (${absent.join(', ') || 'unfinished install'}): ${hint}` }
  return { bin }
}

export function agentClientsRequired(): boolean {
  return process.env.BRAIN_TEST_AGENT_CLIENTS_REQUIRED === '1'
}

export interface ClientSandbox {
  root: string
  home: string
  project: string
  /** The agents' own directories, all under `home`: what `brain agents install` reads them from too. */
  dirs: Record<string, string>
}

/** A fresh home and project, each client's directories under that home. */
export function clientSandbox(): ClientSandbox {
  const root = mkdtempSync(join(tmpdir(), 'brain-clients-'))
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(home)
  mkdirSync(project)
  const dirs = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CODEX_HOME: join(home, '.codex'),
  }
  return { root, home, project, dirs }
}

/** Writes files given by absolute path, making their folders. */
export function writeFiles(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
}

/** Every file under a folder with its exact bytes, to prove a second install or an uninstall changes nothing else. */
export function fileTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else out[relative(dir, full)] = readFileSync(full, 'latin1')
    }
  }
  walk(dir)
  return out
}

/** The clients' PATH: `path` first, then the clients' folder, node's and the system's. */
export function clientPath(bin: string, path: readonly string[]): string[] {
  return [...path, bin, dirname(process.execPath), '/usr/bin', '/bin']
}

/**
 * What every client runs with: its sandbox's home, `path` first on PATH, and everything that
 * would reach beyond 127.0.0.1 switched off or sent to `proxy`, a local one that refuses it.
 */
export function clientEnv(sandbox: ClientSandbox, bin: string, path: readonly string[], proxy: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...sandbox.dirs,
    PATH: clientPath(bin, path).join(':'),
    ...(process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }),
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // Claude Code
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Gemini CLI: no second Node process with a larger heap
    GEMINI_CLI_NO_RELAUNCH: 'true',
    // opencode
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    ...extra,
  }
}

export interface ClientRun {
  code: number
  stdout: string
  stderr: string
  ms: number
}

/**
 * Runs a client to its end, stdin closed. It gets a process group of its own, so what it starts
 * (brain's MCP server, its hooks) is stopped with it if it overstays `timeoutMs`.
 */
export function runClient(bin: string, name: ClientName, args: readonly string[], env: Record<string, string>, cwd: string, timeoutMs = 90_000): Promise<ClientRun> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, name), args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => {
      stderr += `\n[test] ${name} ran past ${timeoutMs} ms: stopped`
      if (child.pid !== undefined && processAlive(child.pid)) process.kill(-child.pid, 'SIGKILL')
    }, timeoutMs)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      // What the client started and left running (an MCP server it did not wait for) goes too.
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      } catch {
        // The group is gone: nothing was left.
      }
      resolve({ code: code ?? (signal === null ? -1 : 128), stdout, stderr, ms: Date.now() - started })
    })
  })
}
