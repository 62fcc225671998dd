/**
 * The ES-module CLI's start: the version and the relay to the resident service (forward.ts), an
 * agent's hook, or the command run in this process (help, `service …`, BRAIN_NO_SERVICE=1, a thin
 * client's brain). bin/brain.js runs the first two from the bundled forward.cjs when it can.
 */
import { processEnv } from '../config/env.js'
import { relayCommand, versionCommand } from './forward.js'

const LOCAL_FLAGS = new Set(['--help', '-h'])

async function main(): Promise<number> {
  const version = versionCommand()
  if (version !== null) return version
  const relayed = await relayCommand()
  if (relayed !== null) return relayed
  const argv = process.argv.slice(2)
  const env = processEnv()
  // An agent's hook runs on every prompt: a lean path that never loads the command framework.
  if (argv[0] === 'hook' && !argv.some((a) => LOCAL_FLAGS.has(a))) {
    const { runHook } = await import('./hook.js')
    return runHook(argv.slice(1), env, { stdin: process.stdin, stdout: process.stdout, cwd: process.cwd() })
  }
  const { chooseWasmTier, runsLong } = await import('./wasm-tier.js')
  chooseWasmTier(argv, env.BRAIN_WASM_TIER)
  const { runCli, processContext } = await import('./main.js')
  return runCli(argv, { ...processContext(), oneShot: !runsLong(argv) })
}

/** Whatever fails here reaches the user as one line with a hint, never as a stack trace. */
async function mainReported(): Promise<number> {
  try {
    return await main()
  } catch (err) {
    const { reportCommandFailure } = await import('./output.js')
    return reportCommandFailure(err)
  }
}

const code = await mainReported()
// Exit once output is flushed: a pool or model left open must not keep a finished command alive.
process.stdout.write('', () => process.exit(code))
