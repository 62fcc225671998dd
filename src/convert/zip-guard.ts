import { ConvertError } from './errors.js'

export interface ZipLimits {
  maxEntries: number
  maxUncompressedBytes: number
  /** Largest uncompressed/compressed ratio of one entry. */
  maxRatio: number
}

export const ZIP_LIMITS: ZipLimits = { maxEntries: 5000, maxUncompressedBytes: 200 * 1024 * 1024, maxRatio: 200 }

/** One file as a zip's central directory declares it. */
interface ZipDirectoryEntry {
  name: string
  /** 0 stored, 8 deflated. */
  method: number
  compressedSize: number
  size: number
  /** Where the entry's local header starts. */
  localOffset: number
}

/**
 * Reads a zip's central directory (without inflating anything) and refuses archives whose
 * declared sizes would expand past the limits: an Office file is a zip, and a small one can
 * claim gigabytes. Returns the directory it checked.
 */
export function checkZip(bytes: Uint8Array, name: string, limits: ZipLimits = ZIP_LIMITS): ZipDirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let eocd = -1
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw new ConvertError('convert_corrupt', `${name}: not a zip archive`)
  const entries = view.getUint16(eocd + 10, true)
  let offset = view.getUint32(eocd + 16, true)
  if (entries > limits.maxEntries) throw new ConvertError('convert_archive_bomb', `${name}: ${entries} archive entries exceed ${limits.maxEntries}`)
  let total = 0
  const directory: ZipDirectoryEntry[] = []
  const decoder = new TextDecoder('utf-8', { fatal: false })
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.byteLength || view.getUint32(offset, true) !== 0x02014b50) throw new ConvertError('convert_corrupt', `${name}: a broken zip directory`)
    const compressed = view.getUint32(offset + 20, true)
    const size = view.getUint32(offset + 24, true)
    total += size
    if (size === 0xffffffff || total > limits.maxUncompressedBytes || (size > 1024 * 1024 && size / Math.max(compressed, 1) > limits.maxRatio)) {
      throw new ConvertError('convert_archive_bomb', `${name}: the archive expands past the limits (${total} bytes declared)`, 'Open it in its application and save a smaller copy.')
    }
    const nameLength = view.getUint16(offset + 28, true)
    directory.push({
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      method: view.getUint16(offset + 10, true),
      compressedSize: compressed,
      size,
      localOffset: view.getUint32(offset + 42, true),
    })
    offset += 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true)
  }
  return directory
}
