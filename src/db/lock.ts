import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { LockError } from '../errors/index.js'
import { processAlive } from '../util/process-alive.js'

interface LockOwner {
  pid: number
  command: string
  started_at: string
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>
    return typeof owner.pid === 'number' ? (owner as LockOwner) : null
  } catch {
    return null
  }
}

export interface FileLock {
  readonly path: string
  release(): void
}

/**
 * An exclusive lock file for the embedded database. PGLite has no locking of its own and two
 * processes writing one data directory corrupt it, so the second opener must fail before it
 * touches the data. A lock left by a dead process is taken over.
 */
export function acquireFileLock(path: string, description: string): FileLock {
  mkdirSync(dirname(path), { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx', 0o600)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = readOwner(path)
      if (owner && owner.pid !== process.pid && processAlive(owner.pid)) {
        throw new LockError('brain_locked', `The embedded brain at ${description} is in use by process ${owner.pid} (${owner.command}).`, {
          hint: 'Wait for that process to finish or stop it. For several processes at once, use the server engine: brain init --url <postgres-url>.',
        })
      }
      if (owner && owner.pid === process.pid) {
        throw new LockError('brain_already_open', `The embedded brain at ${description} is already open in this process.`, {
          hint: 'Reuse the open database instead of opening it twice.',
        })
      }
      unlinkSync(path)
      continue
    }
    const owner: LockOwner = { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 200), started_at: new Date().toISOString() }
    writeSync(fd, JSON.stringify(owner))
    closeSync(fd)
    let released = false
    const onExit = (): void => release()
    const release = (): void => {
      if (released) return
      released = true
      process.off('exit', onExit)
      const current = readOwner(path)
      if (current?.pid === process.pid) {
        try {
          unlinkSync(path)
        } catch {
          // Already gone: nothing to release.
        }
      }
    }
    process.on('exit', onExit)
    return { path, release }
  }
  throw new LockError('brain_lock_race', `Could not take the lock ${path}.`, { hint: 'Another process is starting; try again.' })
}
