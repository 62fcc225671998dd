/**
 * Runs the real `brain` binary in a child process, against an embedded brain in a temp
 * BRAIN_HOME or a fresh database on the test PostgreSQL cluster.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPgDatabase, type EngineName } from './engines.js'

export const BRAIN_BIN = fileURLToPath(new URL('../../../bin/brain.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json<T = Record<string, unknown>>(): T
}

export interface CliBrain {
  engine: EngineName
  env: Record<string, string>
  run(args: string[], options?: { input?: string; env?: Record<string, string> }): Promise<CliResult>
  cleanup(): Promise<void>
}

export function runBrain(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BRAIN_BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
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

export async function cliBrain(engine: EngineName): Promise<CliBrain> {
  const home = mkdtempSync(join(tmpdir(), 'brain-cli-'))
  const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' }
  let drop = async (): Promise<void> => undefined
  if (engine === 'postgres') {
    const created = await createPgDatabase({ migrated: true })
    env.BRAIN_DATABASE_URL = created.url
    drop = created.drop
  }
  return {
    engine,
    env,
    run: (args, options = {}) => runBrain(args, { ...env, ...options.env }, options.input),
    cleanup: () => drop(),
  }
}
