import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The buffer pool of a long-lived embedded open (a service, an import, a server) when none is
 * configured. PostgreSQL zeroes its whole pool at every start, and a fresh page of memory costs
 * the kernel a fault: on the machines measured, PostgreSQL's 128 MB pool was 0.4–0.6 s of a
 * service's start, a third of a first command. A brain under 24 MB starts with a 32 MB pool, and
 * once it has outgrown that the engine is reopened with the full pool at a moment no call is
 * under way: a small brain starts sooner, a large one still searches and imports with the pool it
 * needs, and a brain that grows within one service's life pays one reopen (about as long as a
 * start) instead of a slower import and slower searches.
 */
const SMALL_POOL_BYTES = 32 * 1024 * 1024
const FULL_POOL_BYTES = 128 * 1024 * 1024
/** A brain this large at its opening starts with the full pool: it would outgrow the small one soon. */
const SMALL_BRAIN_BYTES = 24 * 1024 * 1024
/** How often a small pool checks whether its brain has outgrown it (a walk of a few hundred files). */
export const GROWTH_CHECK_MS = 10_000

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
  stop(): void
}

/**
 * Checks now and then whether the brain in `dataDir` has outgrown the small pool and, while the
 * engine is idle, has `grow` reopen it with the full one. Nothing to watch for a full pool.
 */
export function watchPoolGrowth(options: { dataDir: string; poolBytes: number; everyMs: number; idle: () => boolean; grow: (bytes: number) => Promise<boolean> }): PoolGrowth {
  if (options.poolBytes >= FULL_POOL_BYTES) return { stop: () => undefined }
  let growing = false
  const timer = setInterval(() => {
    if (growing || !options.idle() || dataBytes(options.dataDir) <= options.poolBytes) return
    growing = true
    options
      .grow(FULL_POOL_BYTES)
      .then(
        (grown) => {
          if (grown) clearInterval(timer)
        },
        // The engine reopens the usual way at the next call; the check runs again later.
        () => undefined,
      )
      .finally(() => (growing = false))
  }, options.everyMs)
  // The check never keeps a finished process alive.
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
