import { createHash } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs'
import { isEngineKind } from '../db/index.js'
import { ValidationError } from '../errors/index.js'

/**
 * The backup file: a plain POSIX tar (so `tar tf` can look inside) whose first member is
 * `manifest.json`. The manifest names every other member with its size and SHA-256, so a
 * truncated, altered or foreign file is refused before anything is changed.
 */

export const BACKUP_FORMAT = 'brain-backup'
export const BACKUP_FORMAT_VERSION = 1
export const BACKUP_EXTENSION = '.brainbackup'

export interface BackupMember {
  name: string
  data: Buffer
}

interface ManifestMember {
  name: string
  bytes: number
  sha256: string
}

interface BackupManifest {
  format: typeof BACKUP_FORMAT
  format_version: number
  /** The engine the database member is for: `pglite` (a data directory) or `postgres` (pg_dump custom format). */
  engine: 'pglite' | 'postgres'
  brain_version: string
  created_at: string
  pages: number
  /** SHA-256 over every page's source, slug and content hash in order: equal brains have equal summaries. */
  content_hash_summary: string
  /** The newest migration the database holds. */
  schema_version: number
  members: ManifestMember[]
}

const BLOCK = 512
const MANIFEST = 'manifest.json'

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

function header(name: string, size: number, mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK)
  block.write(name, 0, 100, 'utf8')
  block.write(octal(0o600, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(size, 12), 124, 'ascii')
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii')
  block.write('        ', 148, 'ascii')
  block.write('0', 156, 'ascii')
  block.write('ustar\0' + '00', 257, 'ascii')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(octal(sum, 7) + ' ', 148, 'ascii')
  return block
}

/**
 * Writes the archive beside `path` and renames it into place once it is on disk, so a backup cut
 * short (a full disk, a crash) never looks like a complete one. Readable by its owner only: it
 * holds config.json and the token table.
 */
export function writeBackupFile(path: string, manifest: Omit<BackupManifest, 'members'>, members: readonly BackupMember[]): BackupManifest {
  const full: BackupManifest = { ...manifest, members: members.map((m) => ({ name: m.name, bytes: m.data.length, sha256: sha256(m.data) })) }
  const all = [{ name: MANIFEST, data: Buffer.from(JSON.stringify(full, null, 2) + '\n') }, ...members]
  const tmp = `${path}.partial-${process.pid}`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    const now = Date.parse(manifest.created_at)
    for (const member of all) {
      writeSync(fd, header(member.name, member.data.length, now))
      writeSync(fd, member.data)
      const pad = (BLOCK - (member.data.length % BLOCK)) % BLOCK
      if (pad > 0) writeSync(fd, Buffer.alloc(pad))
    }
    writeSync(fd, Buffer.alloc(BLOCK * 2))
    fsyncSync(fd)
    closeSync(fd)
    renameSync(tmp, path)
  } catch (err) {
    try {
      closeSync(fd)
    } catch {
      // Already closed.
    }
    rmSync(tmp, { force: true })
    throw err
  }
  return full
}

function damaged(path: string, why: string): ValidationError {
  return new ValidationError('backup_damaged', `${path} is damaged: ${why}.`, {
    hint: 'Nothing was changed. Use another backup (`brain backup list`), or copy this one again from where it was kept.',
  })
}

function foreign(path: string, why: string): ValidationError {
  return new ValidationError('backup_not_recognized', `${path} is not a brain backup: ${why}.`, {
    hint: 'Nothing was changed. Give a file made by `brain backup` (`brain backup list` shows them).',
  })
}

function readMembers(path: string, bytes: Buffer): Map<string, Buffer> {
  const members = new Map<string, Buffer>()
  let offset = 0
  while (offset + BLOCK <= bytes.length) {
    const block = bytes.subarray(offset, offset + BLOCK)
    if (block.every((b) => b === 0)) return members
    let sum = 0
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!
    if (parseInt(block.toString('ascii', 148, 156), 8) !== sum) throw members.size === 0 ? foreign(path, 'it is not a tar archive') : damaged(path, 'a member header is corrupt')
    const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '')
    const size = parseInt(block.toString('ascii', 124, 136), 8)
    const start = offset + BLOCK
    if (!Number.isFinite(size) || start + size > bytes.length) throw damaged(path, `member ${name} is cut short`)
    members.set(name, bytes.subarray(start, start + size))
    offset = start + Math.ceil(size / BLOCK) * BLOCK
  }
  throw members.size === 0 ? foreign(path, 'it is not a tar archive') : damaged(path, 'the archive ends early')
}

export interface OpenedBackup {
  path: string
  manifest: BackupManifest
  member(name: string): Buffer
}

function parseManifest(path: string, raw: Buffer | undefined): BackupManifest {
  if (raw === undefined) throw foreign(path, 'it has no manifest')
  let manifest: Partial<BackupManifest>
  try {
    manifest = JSON.parse(raw.toString('utf8')) as Partial<BackupManifest>
  } catch {
    throw damaged(path, 'its manifest is not JSON')
  }
  if (manifest.format !== BACKUP_FORMAT) throw foreign(path, 'its manifest is of another format')
  if (manifest.format_version !== BACKUP_FORMAT_VERSION) {
    throw new ValidationError('backup_format_unsupported', `${path} is backup format ${String(manifest.format_version)}; this brain reads format ${BACKUP_FORMAT_VERSION}.`, {
      hint: 'Nothing was changed. Restore it with the brain version that made it, or upgrade brain.',
    })
  }
  if (!Array.isArray(manifest.members) || typeof manifest.engine !== 'string' || !isEngineKind(manifest.engine)) throw damaged(path, 'its manifest is incomplete')
  return manifest as BackupManifest
}

/** Reads a backup and checks every member against the manifest's size and SHA-256. */
export function openBackupFile(path: string): OpenedBackup {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ValidationError('backup_not_found', `No backup at ${path}.`, { hint: '`brain backup list` shows the backups of this brain.' })
    throw err
  }
  const members = readMembers(path, bytes)
  const manifest = parseManifest(path, members.get(MANIFEST))
  for (const m of manifest.members) {
    const data = members.get(m.name)
    if (data === undefined) throw damaged(path, `member ${m.name} is missing`)
    if (data.length !== m.bytes || sha256(data) !== m.sha256) throw damaged(path, `member ${m.name} does not match its checksum`)
  }
  return {
    path,
    manifest,
    member(name) {
      const data = members.get(name)
      if (data === undefined || !manifest.members.some((m) => m.name === name)) throw damaged(path, `member ${name} is missing`)
      return data
    },
  }
}

/** Only the manifest, for listings: the first member, without reading or checking the rest. */
export function readBackupManifest(path: string): BackupManifest | null {
  let fd: number | null = null
  try {
    fd = openSync(path, 'r')
    const head = Buffer.alloc(BLOCK)
    if (readSync(fd, head, 0, BLOCK, 0) !== BLOCK) return null
    const name = head.toString('utf8', 0, 100).replace(/\0.*$/s, '')
    const size = parseInt(head.toString('ascii', 124, 136), 8)
    if (name !== MANIFEST || !Number.isFinite(size) || size > 1_048_576) return null
    const body = Buffer.alloc(size)
    if (readSync(fd, body, 0, size, BLOCK) !== size) return null
    return parseManifest(path, body)
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}
