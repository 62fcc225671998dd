import { inflateRawSync } from 'node:zlib'
import { ConvertError } from './errors.js'
import { checkZip, ZIP_LIMITS, type ZipLimits } from './zip-guard.js'

/**
 * One entry inflated to at most `limit` bytes: zlib stops as soon as its output passes the
 * limit, so a member whose header understates what it expands to costs no more memory than the
 * limit, whatever it would really inflate to.
 */
function inflateBounded(data: Uint8Array, limit: number, what: string): Uint8Array {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(limit, 1) })
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ConvertError('convert_archive_bomb', `${what} expands past ${limit} bytes, more than the archive declares`, 'Open it in its application and save a smaller copy.')
    }
    throw new ConvertError('convert_corrupt', `${what} does not inflate (${err instanceof Error ? err.message : String(err)})`)
  }
}

/**
 * The files of a zip archive by name, each read on demand. The archive is checked against
 * expansion bombs first; then inflated bytes are counted as they come: an entry stops at the
 * size its directory declares, and all the reads of one archive together stop at the archive
 * limit, so headers that lie cannot make the reader hold more than the limit.
 */
export function zipEntries(bytes: Uint8Array, name: string, limits: ZipLimits = ZIP_LIMITS): Map<string, () => Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries = new Map<string, () => Uint8Array>()
  let inflated = 0
  for (const { name: entryName, method, compressedSize, size, localOffset: local } of checkZip(bytes, name, limits)) {
    entries.set(entryName, () => {
      if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== 0x04034b50) throw new ConvertError('convert_corrupt', `${name}: a broken zip entry (${entryName})`)
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
      const data = bytes.subarray(start, start + compressedSize)
      if (method !== 0 && method !== 8) throw new ConvertError('convert_unsupported', `${name}: ${entryName} is compressed in a way this reader does not know (method ${method})`)
      const left = limits.maxUncompressedBytes - inflated
      if (left <= 0) throw new ConvertError('convert_archive_bomb', `${name}: reading its entries expands past ${limits.maxUncompressedBytes} bytes`)
      const out = method === 0 ? data : inflateBounded(data, Math.min(size, left), `${name}: ${entryName}`)
      inflated += out.byteLength
      return out
    })
  }
  return entries
}

/**
 * An archive as the reader interface the docx library opens (`exists`, `read`), over the
 * bounded entries above: the library's own unzipper would inflate a member to whatever size it
 * really has, past anything its header declared.
 */
export interface ArchiveFile {
  exists(path: string): boolean
  read(path: string, encoding?: string): Promise<Uint8Array | string>
}

export function archiveFile(bytes: Uint8Array, name: string): ArchiveFile {
  const entries = zipEntries(bytes, name)
  return {
    exists: (path) => entries.has(path),
    read: async (path, encoding) => {
      const entry = entries.get(path)
      if (entry === undefined) throw new ConvertError('convert_corrupt', `${name}: no ${path} in the archive`)
      const data = entry()
      if (encoding === 'base64') return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')
      return encoding ? new TextDecoder(encoding).decode(data) : data
    },
  }
}

/**
 * A link inside an archive (an EPUB's `href`, an Office relationship's `Target`) as the archive
 * names the file: URL-decoded, its fragment dropped, resolved against `base` (the linking part's
 * folder), or against the archive's root when it starts with `/`.
 */
export function archivePath(base: string, href: string): string {
  let path = href.split('#')[0]!
  try {
    path = decodeURIComponent(path)
  } catch {
    // Kept as written.
  }
  const parts = path.startsWith('/') ? [] : base.split('/').filter((p) => p !== '')
  for (const part of path.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}
