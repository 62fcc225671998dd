/**
 * The launcher: a small sh script at a path brain owns (`$BRAIN_HOME/bin/brain`) that starts this
 * install of brain with the node that runs it now. Agents' entries name the launcher, not a bare
 * `brain`, so they work whether or not brain is on PATH; every install rewrites it, so an upgrade
 * or a moved checkout needs one more `brain agents install`, and no agent file changes.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ConfigError } from '../errors/index.js'
import { packageRoot } from '../util/package-root.js'
import { shellJoin, shellQuote } from './command-line.js'

/** Where the launcher lives in a brain home. */
export function launcherPath(brainHome: string): string {
  return join(brainHome, 'bin', 'brain')
}

/**
 * How project files that are shared (committed) start brain: the launcher of whoever runs the
 * agent, found at run time in their own brain home, so the file names no path of this machine.
 */
export const SHARED_LAUNCHER = '"${BRAIN_HOME:-$HOME/.brain}/bin/brain"'

/** The same as argv, for agents that take a program and its arguments. */
export function sharedArgv(args: readonly string[]): string[] {
  return ['sh', '-c', `exec ${SHARED_LAUNCHER} "$@"`, 'brain', ...args]
}

/** The bin/brain.js of the install this code runs from, with the node running it now. */
export function currentBrainArgv(): string[] {
  const script = join(packageRoot(), 'bin', 'brain.js')
  if (!existsSync(script)) {
    throw new ConfigError('agent_command_failed', `Cannot find this install's bin/brain.js (looked at ${script}).`, { hint: 'Pass the command that starts brain with --command.' })
  }
  return [process.execPath, script]
}

/**
 * A hook goes straight to the install's bundled hook client when `node …/bin/brain.js` is what
 * the launcher starts: the agent waits on every prompt for node to start, and that file starts
 * fastest. An install without the bundle (a bare compile) runs the hook through bin/brain.js.
 */
function hookLine(argv: readonly string[]): string {
  if (argv.length !== 2 || basename(argv[1]!) !== 'brain.js') return ''
  const client = join(dirname(argv[1]!), '..', 'dist', 'bundle', 'hook-client.cjs')
  return `if [ "$1" = hook ] && [ -f ${shellQuote(client)} ]; then exec ${shellJoin([argv[0]!, client])} "$@"; fi\n`
}

/** The launcher's text: it names the brain home it lives in, so hooks and servers reach that brain. */
export function launcherScript(argv: readonly string[], brainHome: string): string {
  const script = argv.length > 1 && argv[1]!.endsWith('.js') ? argv[1]! : null
  const gone = `brain: ${script} is gone; run "brain agents install <agent>" again with brain from its new place`
  const missing = script === null ? '' : `[ -f ${shellQuote(script)} ] || { echo ${shellQuote(gone)} >&2; exit 127; }\n`
  return [
    '#!/bin/sh',
    "# brain's launcher, rewritten by every `brain agents install`: agents' hooks and MCP servers start brain through it.",
    `BRAIN_HOME=${shellQuote(brainHome)}`,
    'export BRAIN_HOME',
    `${missing}${hookLine(argv)}exec ${shellJoin(argv)} "$@"`,
    '',
  ].join('\n')
}

export interface CommandCheck {
  ok: boolean
  /** The version it printed, or why it did not start. */
  detail: string
}

/** Runs `argv --version` the way an agent would start it; never throws. */
export function checkCommand(argv: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<CommandCheck> {
  return new Promise((resolve) => {
    execFile(argv[0]!, [...argv.slice(1), '--version'], { env, timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) {
        const why = stderr.trim().split('\n').pop() || (err as NodeJS.ErrnoException).code || err.message
        resolve({ ok: false, detail: String(why) })
      } else resolve({ ok: true, detail: stdout.trim() })
    })
  })
}

/** Refuses an install whose command does not start: an agent would show the failure on every prompt. */
export async function requireCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const result = await checkCommand(argv, env)
  if (!result.ok) {
    throw new ConfigError('agent_command_failed', `\`${shellJoin(argv)} --version\` does not run: ${result.detail}`, {
      hint: 'Pass the command line that starts brain with --command (e.g. --command "node /path/to/brain/bin/brain.js").',
    })
  }
  return result.detail
}
