import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The buffer pool of a long-lived embedded open (a service, an import, a server) when none is
 * configured. PostgreSQL zeroes its whole pool at every start, and a fresh page of memory costs
 * the kernel a fault: on the machines measured, PostgreSQL's 128 MB pool was 0.4–0.6 s of a
 * service's start, a third of a first command. A brain under 24 MB starts with a 32 MB pool, and
 * one that grows large while open (an import of thousands of notes) is reopened with the full pool
 * at a moment no call is under way: a small brain starts sooner, and a large one still searches
 * and imports with the pool it needs.
 */
const SMALL_POOL_BYTES = 32 * 1024 * 1024
const FULL_POOL_BYTES = 128 * 1024 * 1024
/** A brain this large at its opening starts with the full pool. */
const SMALL_BRAIN_BYTES = 24 * 1024 * 1024
/**
 * A brain opened small gets the full pool once it is this large. A reopen costs about a second
 * (the close's checkpoint, a start, the engine's code warmed again), more than a small pool costs
 * a brain of a few times its size: an import that grew a new brain to 45 MB took as long through a
 * 32 MB pool as through 128 MB, with the same search times after it.
 */
const GROW_AT_BYTES = 96 * 1024 * 1024
/**
 * How often a small pool checks whether its brain has grown that large (a walk of a few hundred
 * files, about 6 ms), when any call has begun since the last check.
 */
export const GROWTH_CHECK_MS = 5000

/** The bytes of a data directory's tables and indexes (its `base/` and `global/` folders). */
export function dataBytes(dataDir: string): number {
  let total = 0
  const walk = (dir: string): void => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        try {
          total += statSync(path).size
        } catch {
          // Removed meanwhile (a dropped table's file): not part of the brain any more.
        }
      }
    }
  }
  walk(join(dataDir, 'base'))
  walk(join(dataDir, 'global'))
  return total
}

/** The pool a brain of `bytes` starts with. */
export function poolForBrain(bytes: number): number {
  return bytes < SMALL_BRAIN_BYTES ? SMALL_POOL_BYTES : FULL_POOL_BYTES
}

interface PoolGrowth {
  /** Grows the pool now when the brain, with `bytes` more, would be large enough for it, and the engine is idle. */
  expect(bytes: number): Promise<void>
  stop(): void
}

/**
 * Checks now and then, after calls, whether the brain in `dataDir` has grown large enough for the
 * full pool and, while the engine is idle, has `grow` reopen it with that pool. Nothing to watch
 * for a full pool, nor while no call begins.
 */
export function watchPoolGrowth(options: {
  dataDir: string
  poolBytes: number
  everyMs: number
  callsBegun: () => number
  idle: () => boolean
  grow: (bytes: number) => Promise<boolean>
}): PoolGrowth {
  if (options.poolBytes >= FULL_POOL_BYTES) return { expect: async () => undefined, stop: () => undefined }
  let growing: Promise<void> | null = null
  let grown = false
  const grow = (): Promise<void> =>
    (growing ??= options
      .grow(FULL_POOL_BYTES)
      .then(
        (done) => {
          if (done) {
            grown = true
            clearInterval(timer)
          }
        },
        // The engine reopens the usual way at the next call; the check runs again later.
        () => undefined,
      )
      .finally(() => (growing = null)))
  let checkedAt = options.callsBegun()
  const timer = setInterval(() => {
    if (growing || !options.idle() || options.callsBegun() === checkedAt) return
    checkedAt = options.callsBegun()
    if (dataBytes(options.dataDir) >= GROW_AT_BYTES) void grow()
  }, options.everyMs)
  // The check never keeps a finished process alive.
  timer.unref()
  return {
    expect: async (bytes) => {
      if (grown || !options.idle() || dataBytes(options.dataDir) + bytes < GROW_AT_BYTES) return
      await grow()
    },
    stop: () => clearInterval(timer),
  }
}
