/**
 * Whether a command runs in this process or in the brain's resident service, and the relay to the
 * service when it is the latter. Kept to Node built-ins and the few light modules the relay needs:
 * bin/brain.js loads it (bundled as one CommonJS file) before anything else, for every command.
 */
import { parseFlag, processEnv } from '../config/env.js'
import { isThinClient } from '../config/file-config.js'
import { brainHome } from '../config/home.js'
import { forward } from '../service/client.js'
import { currentIdentity } from '../service/identity.js'
import { reportCommandFailure } from './output.js'

const LOCAL_FLAGS = new Set(['--help', '-h'])
/** The program's version is asked with the flag alone; `get <slug> --version 3` is a page version. */
const VERSION_FLAGS = new Set(['--version', '-v'])

type Env = Readonly<Record<string, string | undefined>>

/** Commands that never need the brain open, or manage the service itself. */
function runsInProcess(argv: readonly string[], env: Env): boolean {
  if (parseFlag(env.BRAIN_NO_SERVICE) || process.platform === 'win32') return true
  // After `--` every word is an argument (`brain get -- --help` reads the page `--help`).
  const end = argv.indexOf('--')
  const options = end === -1 ? argv : argv.slice(0, end)
  if (argv.length === 0 || options.some((a) => LOCAL_FLAGS.has(a)) || VERSION_FLAGS.has(argv[0]!)) return true
  const first = argv.find((a) => !a.startsWith('-'))
  // Restore and repair replace the database the service holds open, or one that does not open.
  if (first === 'restore' || first === 'repair') return true
  // Installing into an agent acts on this machine's files, never on the brain.
  if (first === 'service' || first === 'agents' || ((first === 'jobs' || first === 'ingest') && argv.includes('supervisor'))) return true
  return isThinClient(brainHome(env))
}

/** Whether this process only relays the command to the resident service. */
function relays(argv: readonly string[], env: Env): boolean {
  // An agent's hook has a lean path of its own (hook-client.ts, hook.ts).
  if (argv[0] === 'hook' && !argv.some((a) => LOCAL_FLAGS.has(a))) return false
  return !runsInProcess(argv, env)
}

/**
 * Answers `brain --version`, the commonest probe of an install, from the VERSION file without the
 * CLI framework; resolves to null, having done nothing, for any other command line.
 */
export function versionCommand(): number | null {
  const argv = process.argv.slice(2)
  if (argv.length !== 1 || !VERSION_FLAGS.has(argv[0]!)) return null
  process.stdout.write(`${currentIdentity().version}\n`)
  return 0
}

/**
 * Relays this process's command (process.argv) to the resident service when it runs there, and
 * resolves to its exit status; resolves to null, having done nothing, when it runs in this process.
 * A failure of the relay (no service could start) is reported here, as one line with a hint.
 */
export async function relayCommand(): Promise<number | null> {
  const argv = process.argv.slice(2)
  const env = processEnv()
  if (!relays(argv, env)) return null
  try {
    return await relay(argv, env)
  } catch (err) {
    return reportCommandFailure(err)
  }
}

function columnsOf(stream: NodeJS.WriteStream): number | null {
  return stream.isTTY ? (stream.columns ?? null) : null
}

/** Runs the command in the resident service, this process's streams its own; resolves to its exit status. */
async function relay(argv: string[], env: Env): Promise<number> {
  const interrupt = new AbortController()
  let interrupted = false
  process.on('SIGINT', () => {
    // The command in the service is told to stop; this process ends as an interrupted one would.
    interrupted = true
    interrupt.abort()
    setTimeout(() => process.exit(130), 200).unref()
  })
  const forwardedEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
  const code = await forward({
    argv,
    cwd: process.cwd(),
    env: forwardedEnv,
    home: brainHome(env),
    // Opened only if the command reads its input (the service asks): most commands read none.
    get stdin() {
      return process.stdin
    },
    stdout: process.stdout,
    stderr: process.stderr,
    terminal: {
      // Asked of the descriptor: process.stdin would open the stream.
      stdinIsTTY: process.getBuiltinModule('node:tty').isatty(0),
      stdoutIsTTY: process.stdout.isTTY === true,
      stderrIsTTY: process.stderr.isTTY === true,
      stdoutColumns: columnsOf(process.stdout),
      stderrColumns: columnsOf(process.stderr),
      colorDepth: null,
    },
    interrupt: interrupt.signal,
  })
  return interrupted ? 130 : code
}
