import { statfsSync } from 'node:fs'
import { DiskError } from '../errors/index.js'

/** Bytes an unprivileged process may still write on the filesystem holding `dir`. */
function freeBytes(dir: string): number {
  const stats = statfsSync(dir)
  return Number(stats.bavail) * Number(stats.bsize)
}

/** Bytes as a person reads them: 12.3 MiB. */
function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}

const HINT = 'Free some space (or move BRAIN_HOME to a larger disk) and run the command again, or lower the reserve with BRAIN_DISK_RESERVE (e.g. 32MiB) or disk.reserve in config.json.'

interface FreeSpaceGuardOptions {
  /** A folder on the filesystem to watch (the embedded data directory). */
  dir: string
  /** Writes are refused while fewer bytes than this are free. */
  reserveBytes: number
  /** The reading itself; tests inject a low one. */
  read?: (dir: string) => number
}

/**
 * Checks free space before a write. A reading well above the reserve is kept for a short while
 * so a batch of writes costs one statfs; near or below the reserve every check reads afresh, so
 * writes stop as soon as the disk fills and resume as soon as space is freed.
 */
export class FreeSpaceGuard {
  private static readonly CACHE_MS = 250
  /** Near the floor every write reads afresh, so a disk filled by another program is seen at once. */
  private static readonly CACHE_MARGIN_BYTES = 256 * 1024 * 1024
  private readonly read: (dir: string) => number
  private lastReading = Number.POSITIVE_INFINITY
  private lastReadAt = Number.NEGATIVE_INFINITY

  constructor(private readonly options: FreeSpaceGuardOptions) {
    this.read = options.read ?? freeBytes
  }

  /** Throws DiskError disk_full when the filesystem has less free space than the reserve. */
  check(): void {
    this.checkAbove(this.options.reserveBytes)
  }

  /**
   * The check before work that writes a lot (a job): room for the reserve and `extraBytes`
   * beyond it, so the work fails at its start instead of part way, when the log's next segment
   * takes what the reserve was keeping.
   */
  checkRoom(extraBytes: number): void {
    this.checkAbove(this.options.reserveBytes + extraBytes)
  }

  /**
   * The check for the small writes that record what happened (a job's outcome, its progress),
   * allowed into the lower half of the reserve: a write refused for lack of space must still be
   * reported to whoever waits for it, or the waiter hangs.
   */
  checkBookkeeping(): void {
    this.checkAbove(Math.floor(this.options.reserveBytes / 2))
  }

  /**
   * The check before opening the database again after its engine was set aside: recovery writes
   * a fresh WAL segment and a checkpoint, which is what the reserve is sized for.
   */
  checkToOpen(): void {
    const free = this.readOrInfinity()
    if (free >= this.options.reserveBytes) return
    throw new DiskError(
      'disk_full',
      `The disk holding ${this.options.dir} has ${formatBytes(free)} free; the embedded brain needs ${formatBytes(this.options.reserveBytes)} free to open, for the database's recovery to finish. Nothing was lost.`,
      { hint: HINT },
    )
  }

  private checkAbove(floor: number): void {
    const now = Date.now()
    const fresh = now - this.lastReadAt < FreeSpaceGuard.CACHE_MS && this.lastReading >= floor + FreeSpaceGuard.CACHE_MARGIN_BYTES
    if (!fresh) {
      this.lastReading = this.readOrInfinity()
      this.lastReadAt = now
    }
    if (this.lastReading >= floor) return
    throw new DiskError(
      'disk_full',
      `The disk holding ${this.options.dir} has ${formatBytes(this.lastReading)} free; the brain keeps ${formatBytes(floor)} free so the database can always finish and checkpoint, so nothing was written. Reads keep working.`,
      { hint: HINT },
    )
  }

  /** A filesystem that cannot be asked (gone, unsupported) does not block writes; the write reports its own error. */
  private readOrInfinity(): number {
    try {
      return this.read(this.options.dir)
    } catch {
      return Number.POSITIVE_INFINITY
    }
  }
}

/**
 * Whether a statement may write: anything that does not start with a read-only verb. Errs on
 * the side of checking (a WITH … that modifies data counts as a write).
 */
export function mayWrite(sql: string): boolean {
  const match = /^\s*(?:--[^\n]*\n\s*)*\(?\s*([a-z]+)/i.exec(sql)
  const verb = match?.[1]?.toLowerCase()
  if (verb === 'select' || verb === 'show' || verb === 'explain' || verb === 'values') return false
  if (verb === 'with') return /\b(insert|update|delete|merge)\b/i.test(sql)
  return true
}
