/**
 * Small real filesystems for full-disk tests: a tmpfs mounted at a folder (root only), its free
 * space, a file that fills it, an unmount that waits for the processes still using it, and the
 * stop of a PostgreSQL cluster placed on one.
 */
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, statfsSync, writeSync } from 'node:fs'
import { processRef, stopProcess } from './processes.js'
import { postmasterPid, type PgCluster } from './pg-cluster.js'

const MIB = 1024 * 1024

/** Mounts a tmpfs of `size` (e.g. `128m`) at `dir`; false when not root or the mount fails. */
export function mountTmpfs(dir: string, size: string): boolean {
  if (process.getuid?.() !== 0) return false
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' }).status === 0
}

/** Unmounts once the last process using the filesystem has gone (a stopped process's exit can lag its pid). */
export async function unmount(dir: string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (spawnSync('umount', [dir]).status !== 0) {
    if (Date.now() > deadline) {
      spawnSync('umount', ['-l', dir])
      return
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Bytes an unprivileged process may still write on the filesystem holding `dir`. */
export function freeBytes(dir: string): number {
  const stats = statfsSync(dir)
  return Number(stats.bavail) * Number(stats.bsize)
}

/**
 * Writes a file that leaves about `leave` bytes free on the filesystem holding `dir`, a block at
 * a time: a server may write to the same disk meanwhile, so the free space moves under us.
 */
export function fillLeaving(dir: string, path: string, leave: number): void {
  const block = Buffer.alloc(MIB, 7)
  const fd = openSync(path, 'w')
  try {
    for (let free = freeBytes(dir); free > leave; free = freeBytes(dir)) {
      try {
        writeSync(fd, block, 0, Math.min(MIB, free - leave))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return
        throw err
      }
    }
  } finally {
    closeSync(fd)
  }
}

/**
 * Stops a cluster and waits for its postmaster by pid: on a full disk `pg_ctl stop` may fail, and
 * the tmpfs cannot be unmounted while the server still holds it.
 */
export async function stopClusterOnSmallDisk(cluster: PgCluster): Promise<void> {
  const pid = postmasterPid(cluster)
  const postmaster = pid === null ? null : processRef(pid)
  try {
    cluster.stop()
  } finally {
    if (postmaster !== null) await stopProcess(postmaster)
  }
}
