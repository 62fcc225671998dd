/**
 * The write-ahead log of a snapshot archive cut to what it holds. A data directory dumped by
 * PGLite carries whole 16 MiB WAL segments: the one in use, mostly zeros past the last record,
 * and segments kept for reuse, full of records no start reads again. Every in-memory brain
 * unpacks the archive, so those bytes were more than half of what each one copied. A segment file
 * that ends early reads as one whose remaining pages are zeros: the end of the log, where the
 * server goes on writing and the file grows again.
 */

const BLOCK = 512
/** PostgreSQL's WAL page: a segment is kept up to the page holding its last byte of log. */
const WAL_PAGE = 8192
const SEGMENT_NAME = /(?:^|\/)pg_wal\/[0-9A-F]{24}$/

/** A tar member's header fields this needs; tar stores sizes as octal text. */
interface Member {
  name: string
  size: number
  /** Offset of its header in the archive. */
  at: number
}

function readString(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length)
  const end = field.indexOf(0)
  return new TextDecoder().decode(end === -1 ? field : field.subarray(0, end))
}

function readMembers(tar: Uint8Array): Member[] | null {
  const members: Member[] = []
  let at = 0
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK)
    if (header.every((b) => b === 0)) return members
    const size = Number.parseInt(readString(header, 124, 12).trim() || '0', 8)
    if (!Number.isFinite(size) || size < 0) return null
    const prefix = readString(header, 345, 155)
    const name = readString(header, 0, 100)
    members.push({ name: prefix ? `${prefix}/${name}` : name, size, at })
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK
  }
  return null
}

/** A copy of the header with another size and the checksum that goes with it. */
function resized(header: Uint8Array, size: number): Uint8Array {
  const out = Uint8Array.from(header)
  out.set(new TextEncoder().encode(`${size.toString(8).padStart(11, '0')}\0`), 124)
  out.fill(0x20, 148, 156)
  const sum = out.reduce((a, b) => a + b, 0)
  out.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148)
  return out
}

/**
 * The archive without the WAL segments other than `current` (a file name such as
 * 000000010000000000000002), and with `current` cut after the last WAL page holding a non-zero
 * byte. An archive this cannot read is returned as it is.
 */
export function trimArchiveWal(tar: Uint8Array, current: string): Uint8Array {
  const members = readMembers(tar)
  if (members === null || !members.some((m) => SEGMENT_NAME.test(m.name) && m.name.endsWith(`/${current}`))) return tar
  const parts: Uint8Array[] = []
  for (const m of members) {
    const data = tar.subarray(m.at + BLOCK, m.at + BLOCK + m.size)
    const padded = Math.ceil(m.size / BLOCK) * BLOCK
    if (!SEGMENT_NAME.test(m.name)) {
      parts.push(tar.subarray(m.at, m.at + BLOCK + padded))
      continue
    }
    if (!m.name.endsWith(`/${current}`)) continue
    let last = data.length
    while (last > 0 && data[last - 1] === 0) last--
    const kept = Math.min(data.length, Math.ceil(last / WAL_PAGE) * WAL_PAGE)
    parts.push(resized(tar.subarray(m.at, m.at + BLOCK), kept), data.subarray(0, kept))
    const pad = Math.ceil(kept / BLOCK) * BLOCK - kept
    if (pad > 0) parts.push(new Uint8Array(pad))
  }
  parts.push(new Uint8Array(2 * BLOCK))
  return Buffer.concat(parts)
}
