/**
 * What `brain` runs first. It decides, with Node built-ins only, whether this command runs in
 * this process (version, help, `service …`, BRAIN_NO_SERVICE=1) or in the brain's resident
 * service, which this process then only relays to.
 */
import { parseFlag, processEnv } from '../config/env.js'
import { isThinClient } from '../config/file-config.js'
import { brainHome } from '../config/home.js'

const LOCAL_FLAGS = new Set(['--help', '-h'])
/** The program's version is asked with the flag alone; `get <slug> --version 3` is a page version. */
const VERSION_FLAGS = new Set(['--version', '-v'])

/** Commands that never need the brain open, or manage the service itself. */
function runsInProcess(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
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

function columnsOf(stream: NodeJS.WriteStream): number | null {
  return stream.isTTY ? (stream.columns ?? null) : null
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  // The commonest probe of an install answers from the VERSION file, without the CLI framework.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    const { currentIdentity } = await import('../service/identity.js')
    process.stdout.write(`${currentIdentity().version}\n`)
    return 0
  }
  const env = processEnv()
  // An agent's hook runs on every prompt: a lean path that never loads the command framework.
  if (argv[0] === 'hook' && !argv.some((a) => LOCAL_FLAGS.has(a))) {
    const { runHook } = await import('./hook.js')
    return runHook(argv.slice(1), env, { stdin: process.stdin, stdout: process.stdout, cwd: process.cwd() })
  }
  if (runsInProcess(argv, env)) {
    const { chooseWasmTier, runsLong } = await import('./wasm-tier.js')
    chooseWasmTier(argv, env.BRAIN_WASM_TIER)
    const { runCli, processContext } = await import('./main.js')
    return runCli(argv, { ...processContext(), oneShot: !runsLong(argv) })
  }
  const [{ forward }, { WriteStream }] = await Promise.all([import('../service/client.js'), import('node:tty')])
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
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    terminal: {
      stdinIsTTY: process.stdin.isTTY === true,
      stdoutIsTTY: process.stdout.isTTY === true,
      stderrIsTTY: process.stderr.isTTY === true,
      stdoutColumns: columnsOf(process.stdout),
      stderrColumns: columnsOf(process.stderr),
      colorDepth: 'getColorDepth' in WriteStream.prototype ? WriteStream.prototype.getColorDepth() : 1,
    },
    interrupt: interrupt.signal,
  })
  return interrupted ? 130 : code
}

/** Whatever fails here reaches the user as one line with a hint, never as a stack trace. */
async function mainReported(): Promise<number> {
  try {
    return await main()
  } catch (err) {
    const { reportError, wantsJson } = await import('./output.js')
    const flag = process.argv.includes('--json') ? true : process.argv.includes('--no-json') ? false : undefined
    return reportError(err, { stdout: process.stdout, stderr: process.stderr }, wantsJson(flag, process.stdout))
  }
}

const code = await mainReported()
// Exit once output is flushed: a pool or model left open must not keep a finished command alive.
process.stdout.write('', () => process.exit(code))
