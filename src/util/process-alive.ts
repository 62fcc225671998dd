import { readFileSync } from 'node:fs'

/**
 * Whether a process with this pid exists and has not ended (one owned by another user counts as
 * alive). A process that has exited but is not yet reaped (a zombie: a detached service whose
 * parent is gone, under an init that reaps slowly) still answers signal 0, so its state is read too.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !isZombie(pid)
}

/** On Linux, the state letter after the command name in /proc/<pid>/stat; elsewhere unknown (false). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.charAt(stat.lastIndexOf(')') + 2)
    return state === 'Z' || state === 'X'
  } catch {
    return false
  }
}
