import type { Writable } from 'node:stream'
import { serializeError, exitCodeFor } from '../errors/index.js'

/** JSON when asked (`--json`), human when forced (`--no-json`), else JSON unless stdout is a terminal. */
export function wantsJson(flag: boolean | undefined, stdout: Writable): boolean {
  if (flag !== undefined) return flag
  return !(stdout as Writable & { isTTY?: boolean }).isTTY
}

export function isTerminal(stream: Writable): boolean {
  return (stream as Writable & { isTTY?: boolean }).isTTY === true
}

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value
}

export function writeJson(stdout: Writable, value: unknown): void {
  stdout.write(JSON.stringify(value, jsonReplacer, 2) + '\n')
}

/**
 * Reports a failure: the `{class, code, hint, message}` envelope on stdout for agents in JSON
 * mode, one human line on stderr otherwise. Returns the exit code.
 */
export function reportError(err: unknown, streams: { stdout: Writable; stderr: Writable }, json: boolean): number {
  const envelope = serializeError(err)
  if (json) writeJson(streams.stdout, { error: envelope })
  else {
    const hint = envelope.hint ? `\n  hint: ${envelope.hint}` : ''
    streams.stderr.write(`brain: ${envelope.message}${hint}\n`)
  }
  return exitCodeFor(err)
}

/** Reports a failure of this process's own command line, in the output form its flags ask for. */
export function reportCommandFailure(err: unknown): number {
  const flag = process.argv.includes('--json') ? true : process.argv.includes('--no-json') ? false : undefined
  return reportError(err, { stdout: process.stdout, stderr: process.stderr }, wantsJson(flag, process.stdout))
}
