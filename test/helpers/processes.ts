/**
 * Stopping what a test started without signalling anything else. Pids come round: on a machine
 * whose pid_max is 32,768 a busy suite reuses them within a run, so a pid remembered from a
 * process that has since exited may by teardown belong to another test's service. A child is
 * stopped through node's handle, which knows when it has exited; any other process is known by its
 * pid and its start time, read when the pid was learned.
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { processAlive } from '../../src/util/process-alive.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A process by its pid and its start time (clock ticks after boot); null where /proc cannot say. */
export interface ProcessRef {
  pid: number
  startedAt: string | null
  /** Gone when the pid was learned: never signalled. */
  gone: boolean
}

/** Field 22 of /proc/<pid>/stat, counted after the command name, which may hold spaces. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

export function processRef(pid: number): ProcessRef {
  if (!processAlive(pid)) return { pid, startedAt: null, gone: true }
  return { pid, startedAt: startTime(pid), gone: false }
}

/** Whether the process this reference names still runs: the same pid, started at the same time. */
export function stillRunning(ref: ProcessRef): boolean {
  if (ref.gone || !processAlive(ref.pid)) return false
  return ref.startedAt === null || startTime(ref.pid) === ref.startedAt
}

async function stopUntil(running: () => boolean, signal: (name: NodeJS.Signals) => void, graceMs: number): Promise<void> {
  if (!running()) return
  signal('SIGTERM')
  const deadline = Date.now() + graceMs
  while (running() && Date.now() < deadline) await sleep(50)
  if (running()) signal('SIGKILL')
  while (running()) await sleep(20)
}

function signalling(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // Exited between the check and the signal.
  }
}

/** Stops a process by reference: SIGTERM, then SIGKILL after the grace; a pid now another's is left alone. */
export async function stopProcess(ref: ProcessRef, graceMs = 10_000): Promise<void> {
  await stopUntil(
    () => stillRunning(ref),
    (name) => {
      if (stillRunning(ref)) signalling(ref.pid, name)
    },
    graceMs,
  )
}

/** Stops a child this process spawned: SIGTERM, then SIGKILL after the grace; one that has exited is left alone. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  // Both stay null until node has seen the child exit, so kill() never reaches a reused pid.
  const running = (): boolean => child.exitCode === null && child.signalCode === null && child.pid !== undefined
  await stopUntil(running, (name) => child.kill(name), graceMs)
}
