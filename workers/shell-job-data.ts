import { homedir } from 'node:os'
import { isAbsolute } from 'node:path'
import { ValidationError } from '../src/errors/index.js'

/** What a shell job runs: a command line through `/bin/sh -c`, or an argument vector without a shell. */
interface ShellJobSpec {
  /** File to execute and its arguments. */
  file: string
  args: string[]
  /** How the job shows in logs; never includes environment values. */
  display: string
  cwd: string | undefined
  env: Record<string, string>
}

const ALLOWED_KEYS = new Set(['cmd', 'argv', 'cwd', 'env', 'untrusted_payload'])
const SHAPE_HINT = 'Send {"cmd": "<command line>"} or {"argv": ["program", "arg", ...]}, optionally with "cwd" (an absolute path) and "env" (string values).'

function invalid(message: string): ValidationError {
  return new ValidationError('invalid_shell_job', message, { hint: SHAPE_HINT })
}

/** The environment a shell job starts from; the job's own `env` is merged over it. */
function minimalEnvironment(): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: homedir(), LANG: 'C.UTF-8' }
}

function parseCommand(data: Record<string, unknown>): Pick<ShellJobSpec, 'file' | 'args' | 'display'> {
  const hasCmd = data.cmd !== undefined
  const hasArgv = data.argv !== undefined
  if (hasCmd === hasArgv) {
    throw invalid(hasCmd ? 'A shell job takes "cmd" or "argv", not both.' : 'A shell job needs "cmd" (a command line) or "argv" (an array).')
  }
  if (hasCmd) {
    if (typeof data.cmd !== 'string' || data.cmd.trim() === '') throw invalid('"cmd" must be a non-empty string.')
    return { file: '/bin/sh', args: ['-c', data.cmd], display: data.cmd }
  }
  const argv = data.argv
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a): a is string => typeof a === 'string') || argv[0] === '') {
    throw invalid('"argv" must be a non-empty array of strings whose first element is the program.')
  }
  return { file: argv[0]!, args: argv.slice(1), display: argv.join(' ') }
}

function parseEnv(raw: unknown): Record<string, string> {
  if (raw === undefined) return {}
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('"env" must be an object of string values.')
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    // Only the variable's name goes into the message: values may be secrets.
    if (typeof value !== 'string') throw invalid(`"env.${name}" must be a string.`)
    if (name === '' || name.includes('=') || name.includes('\0')) throw invalid(`"env" has an invalid variable name.`)
    env[name] = value
  }
  return env
}

/** Validates a shell job's data; any other shape is a `ValidationError` with code `invalid_shell_job`. */
export function parseShellJobData(data: unknown): ShellJobSpec {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalid("A shell job's data must be an object.")
  const record = data as Record<string, unknown>
  const unknown = Object.keys(record).filter((key) => !ALLOWED_KEYS.has(key))
  if (unknown.length > 0) throw invalid(`A shell job does not take ${unknown.map((k) => `"${k}"`).join(', ')}.`)
  const command = parseCommand(record)
  if (record.cwd !== undefined && (typeof record.cwd !== 'string' || !isAbsolute(record.cwd))) {
    throw invalid('"cwd" must be an absolute path.')
  }
  return { ...command, cwd: record.cwd as string | undefined, env: { ...minimalEnvironment(), ...parseEnv(record.env) } }
}
