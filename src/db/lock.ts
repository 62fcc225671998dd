import { closeSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs'
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
 * A lock file without an owner this young may be one an older brain is still writing (it created
 * the file empty, then wrote it): it is taken for in use. Older, it is a leftover, taken over.
 */
const UNREADABLE_GRACE_MS = 10_000

/** Whether the file at `path` holds no readable owner and has for long enough to be a leftover. */
function unreadableLeftover(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > UNREADABLE_GRACE_MS
  } catch {
    return true
  }
}

function lockedBy(owner: LockOwner, description: string): LockError {
  return new LockError('brain_locked', `The embedded brain at ${description} is in use by process ${owner.pid} (${owner.command}).`, {
    hint: 'Wait for that process to finish or stop it. For several processes at once, use the server engine: brain init --url <postgres-url>.',
  })
}

const beingTaken = (description: string): LockError => new LockError('brain_locked', `The embedded brain at ${description} is being opened by another process.`, { hint: 'Try again in a moment.' })

const sameOwner = (a: LockOwner | null, b: LockOwner | null): boolean => (a === null ? b === null : b !== null && a.pid === b.pid && a.started_at === b.started_at)

/**
 * Removes a stale lock. Removing a file only if it still holds what was read is not one step, so
 * the removal runs under a second lock, `<path>.takeover`: a fresh lock can only appear at a path
 * that is empty, and only the holder of the takeover removes a lock it did not take. Of several
 * openers that find the same stale lock, one takes it over; the others are told the brain is being
 * opened. A takeover lock left by a process that died mid-takeover is itself stale and taken over
 * the same way.
 */
function removeStale(path: string, stale: LockOwner | null, description: string, inPlace: boolean): void {
  let takeover: FileLock
  try {
    takeover = acquireFileLock(`${path}.takeover`, description, inPlace ? { hardLinks: false } : {})
  } catch (err) {
    if (err instanceof LockError) throw beingTaken(description)
    throw err
  }
  try {
    const current = readOwner(path)
    if (!sameOwner(current, stale)) return
    if (current === null && !unreadableLeftover(path)) throw beingTaken(description)
    try {
      unlinkSync(path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  } finally {
    takeover.release()
  }
}

interface LockOptions {
  /**
   * `false` makes the lock in place (created exclusively, then written) as on a filesystem without
   * hard links, where linking fails; absent, that is found out by trying.
   */
  hardLinks?: boolean
}

/**
 * An exclusive lock file for the embedded database. PGLite has no locking of its own and two
 * processes writing one data directory corrupt it, so the second opener must fail before it
 * touches the data. The file appears with its owner written (made aside, then linked into place,
 * which fails if one exists), so another opener never reads a lock half made; where the filesystem
 * has no hard links it is created exclusively and then written, and a young lock without a readable
 * owner is taken for one being made. A lock left by a dead process is taken over.
 */
export function acquireFileLock(path: string, description: string, options: LockOptions = {}): FileLock {
  mkdirSync(dirname(path), { recursive: true })
  const owner: LockOwner = { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 200), started_at: new Date().toISOString() }
  const draft = `${path}.new-${process.pid}`
  let inPlace = options.hardLinks === false
  if (!inPlace) writeFileSync(draft, JSON.stringify(owner), { mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        if (inPlace) createInPlace(path, owner)
        else linkSync(draft, path)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (!inPlace && code !== undefined && NO_HARD_LINKS.has(code)) {
          inPlace = true
          attempt--
          continue
        }
        if (code !== 'EEXIST') throw err
        const current = readOwner(path)
        if (current && current.pid === process.pid) {
          throw new LockError('brain_already_open', `The embedded brain at ${description} is already open in this process.`, {
            hint: 'Reuse the open database instead of opening it twice.',
          })
        }
        if (current && processAlive(current.pid)) throw lockedBy(current, description)
        if (!current && !unreadableLeftover(path)) throw beingTaken(description)
        removeStale(path, current, description, inPlace)
        continue
      }
      return heldLock(path)
    }
  } finally {
    try {
      unlinkSync(draft)
    } catch {
      // Already gone, or never made.
    }
  }
  throw new LockError('brain_lock_race', `Could not take the lock ${path}.`, { hint: 'Another process is starting; try again.' })
}

/** What linking fails with on a filesystem that has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/** Without hard links: the file is created exclusively (EEXIST if there is one), then written. */
function createInPlace(path: string, owner: LockOwner): void {
  const fd = openSync(path, 'wx', 0o600)
  try {
    writeSync(fd, JSON.stringify(owner))
  } catch (err) {
    // Ours, but without an owner a reader could trust: gone again rather than left half made.
    closeSync(fd)
    unlinkSync(path)
    throw err
  }
  closeSync(fd)
}

/** The lock this process holds at `path`, released on exit at the latest. */
function heldLock(path: string): FileLock {
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
