import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export interface Spawned {
  child: ChildProcess
  lines: string[]
  /** Resolves with the first stdout line matching `pattern` (already printed ones count). */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Starts a node script, collecting its stdout lines; stderr passes through for debugging. It
 * goes through /bin/sh so the test runner does not hook the child (its hooks catch signals).
 */
export function spawnScript(script: string, args: string[], env: Record<string, string | undefined>): Spawned {
  const child = spawn('/bin/sh', ['-c', 'exec "$0" "$@"', process.execPath, script, ...args], { env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = []
  let buffer = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      lines.push(line)
      for (const w of [...waiters]) {
        if (w.pattern.test(line)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line)
        }
      }
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  return {
    child,
    lines,
    exited,
    line(pattern, timeoutMs = 120_000) {
      const found = lines.find((l) => pattern.test(l))
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(lines)}`)), timeoutMs)
        waiters.push({ pattern, resolve: (l) => (clearTimeout(timer), resolve(l)) })
      })
    },
  }
}

export const WORKER_FIXTURE = fileURLToPath(new URL('./fixtures/worker-process.js', import.meta.url))
