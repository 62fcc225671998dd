import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { packageRoot } from '../src/util/package-root.js'
import { longRunningNodeArgs } from '../src/util/background-threads.js'
import type { WorkerProcess } from './supervisor.js'

export interface WorkerCommand {
  concurrency: number
  /** RSS limit passed to the worker; null for none. */
  maxRssMb: number | null
  autopilotCron: string | null
  noRetryConnect: boolean
  /** The brain command line to supervise instead of `jobs work` (e.g. `ingest daemon`). */
  args?: readonly string[]
}

function workerArgs(command: WorkerCommand): string[] {
  if (command.args) return [...command.args]
  const args = ['jobs', 'work', '--concurrency', String(command.concurrency)]
  if (command.maxRssMb !== null) args.push('--max-rss', String(command.maxRssMb))
  args.push('--autopilot-cron', command.autopilotCron ?? 'off')
  if (command.noRetryConnect) args.push('--no-retry-connect')
  return args
}

/**
 * Starts `brain jobs work` as a child of this process. Its stdout goes to our stderr so the
 * supervisor's stdout carries nothing but event lines.
 */
export function spawnWorkerProcess(command: WorkerCommand, env: NodeJS.ProcessEnv): WorkerProcess {
  const bin = join(packageRoot(), 'bin', 'brain.js')
  // The supervised worker is a process of its own (its memory is what the limit watches), never
  // a session in the brain service.
  return spawn(process.execPath, [...longRunningNodeArgs(env), bin, ...workerArgs(command)], { env: { ...env, BRAIN_NO_SERVICE: '1' }, stdio: ['ignore', process.stderr, 'inherit'] })
}
