/**
 * Runs the real `brain` binary in a child process, against an embedded brain in a temp
 * BRAIN_HOME or a fresh database on the test PostgreSQL cluster. By default commands run
 * in-process (BRAIN_NO_SERVICE=1); in service mode they go through the resident service, which
 * cleanup() stops by pid. BRAIN_TEST_CLI_MODE=service makes service mode the default.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { processAlive } from '../../src/util/process-alive.js'
import { createPgDatabase, type EngineName } from './engines.js'
import { processRef, stopProcess } from './processes.js'

export const BRAIN_BIN = fileURLToPath(new URL('../../../bin/brain.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json<T = Record<string, unknown>>(): T
}

export type CliMode = 'in-process' | 'service'

export interface CliBrain {
  engine: EngineName
  mode: CliMode
  home: string
  env: Record<string, string>
  run(args: string[], options?: { input?: string; env?: Record<string, string>; cwd?: string }): Promise<CliResult>
  cleanup(): Promise<void>
}

/**
 * The run's settings from scripts/test.sh, for every brain a test starts: a service, a server or an
 * import lives seconds there, so the optimizing recompile (`BRAIN_WASM_TIER`) would cost each about
 * a second of CPU it never earns back, and a 128 MB buffer pool (`BRAIN_BUFFER_POOL`) half a second
 * of zeroing for brains of a few pages.
 */
export function suiteEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of ['BRAIN_WASM_TIER', 'BRAIN_BUFFER_POOL']) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }
  return env
}

/**
 * A test's `brain` runs in-process unless its env asks for the service (`BRAIN_NO_SERVICE=0`), so
 * no test starts a resident service it does not know it has to stop.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  // TMPDIR too, so what a child makes under the temp dir lands in the test run's own folder.
  const tmp: Record<string, string> = process.env.TMPDIR === undefined ? {} : { TMPDIR: process.env.TMPDIR }
  return { PATH: process.env.PATH ?? '', BRAIN_NO_SERVICE: '1', ...tmp, ...suiteEnv(), ...env }
}

export function runBrain(args: string[], env: Record<string, string>, input?: string, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BRAIN_BIN, ...args], { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'], cwd })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json<T>() {
          try {
            return JSON.parse(stdout) as T
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`)
          }
        },
      }),
    )
    child.stdin.end(input ?? '')
  })
}

export function defaultCliMode(): CliMode {
  return process.env.BRAIN_TEST_CLI_MODE === 'service' ? 'service' : 'in-process'
}

/**
 * For test files that make many CLI calls against one brain: through its service, which opens
 * the database once, instead of a process that opens it on every call (0.1 s a call against
 * 0.8 s on the embedded engine). `BRAIN_TEST_CLI_MODE=in-process` runs them the other way.
 */
export function servedCliMode(): CliMode {
  return process.env.BRAIN_TEST_CLI_MODE === 'in-process' ? 'in-process' : 'service'
}

/** Where a running process's working directory is, or null where /proc cannot say. */
function workingDirectory(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return null
  }
}

/**
 * The pid of the service of this home, from its state file or its lock. A service runs in its home,
 * so a pid those files name that now runs elsewhere is another process that was given the pid of a
 * service since gone.
 */
export function servicePid(home: string): number | null {
  let at: string
  try {
    at = realpathSync(home)
  } catch {
    return null
  }
  for (const file of ['service.json', 'service.lock']) {
    try {
      const pid = (JSON.parse(readFileSync(join(home, file), 'utf8')) as { pid?: number }).pid
      if (typeof pid !== 'number' || !processAlive(pid)) continue
      const cwd = workingDirectory(pid)
      if (cwd === null || cwd === at) return pid
    } catch {
      // Not there: try the other file.
    }
  }
  return null
}

export async function stopService(home: string): Promise<void> {
  const pid = servicePid(home)
  if (pid !== null) await stopProcess(processRef(pid))
}

export async function cliBrain(engine: EngineName, options: { mode?: CliMode } = {}): Promise<CliBrain> {
  const mode = options.mode ?? defaultCliMode()
  const home = mkdtempSync(join(tmpdir(), 'brain-cli-'))
  const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' }
  env.BRAIN_NO_SERVICE = mode === 'in-process' ? '1' : '0'
  // A service a failed test leaves behind still goes away by itself.
  if (mode === 'service') env.BRAIN_SERVICE_IDLE_TIMEOUT = '10min'
  let drop = async (): Promise<void> => undefined
  if (engine === 'postgres') {
    const created = await createPgDatabase({ migrated: true })
    env.BRAIN_DATABASE_URL = created.url
    drop = created.drop
  }
  return {
    engine,
    mode,
    home,
    env,
    run: (args, options = {}) => runBrain(args, { ...env, ...options.env }, options.input, options.cwd),
    cleanup: async () => {
      if (mode === 'service') await stopService(home)
      await drop()
    },
  }
}

/**
 * Starts `brain <args>` and leaves it running (a long-lived client such as `brain serve` or an
 * attached `jobs work`), with piped stdio. The caller stops it by pid.
 */
export function spawnBrain(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BRAIN_BIN, ...args], { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] })
}

/** Starts `count` long-lived clients of one brain at once. */
export function spawnBrains(count: number, args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams[] {
  return Array.from({ length: count }, () => spawnBrain(args, env))
}
