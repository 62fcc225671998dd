import { inflateRawSync } from 'node:zlib'
import { ConvertError } from './errors.js'
import { checkZip, type ZipLimits } from './zip-guard.js'

/**
 * The files of a zip archive by name, each read on demand. The archive is checked against
 * expansion bombs first, and each entry is inflated to at most the size its directory declares,
 * so an entry that lies about its size cannot grow past it.
 */
export function zipEntries(bytes: Uint8Array, name: string, limits?: ZipLimits): Map<string, () => Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries = new Map<string, () => Uint8Array>()
  for (const { name: entryName, method, compressedSize, size, localOffset: local } of checkZip(bytes, name, limits)) {
    entries.set(entryName, () => {
      if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== 0x04034b50) throw new ConvertError('convert_corrupt', `${name}: a broken zip entry (${entryName})`)
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
      const data = bytes.subarray(start, start + compressedSize)
      if (method === 0) return data
      if (method !== 8) throw new ConvertError('convert_unsupported', `${name}: ${entryName} is compressed in a way this reader does not know (method ${method})`)
      try {
        return inflateRawSync(data, { maxOutputLength: Math.max(size, 1) })
      } catch (err) {
        throw new ConvertError('convert_corrupt', `${name}: ${entryName} does not inflate (${err instanceof Error ? err.message : String(err)})`)
      }
    })
  }
  return entries
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
