import { inflateRawSync } from 'node:zlib'
import { ConvertError } from './errors.js'
import { checkZip } from './zip-guard.js'

/**
 * The files of a zip archive by name, each read on demand. The archive is checked against
 * expansion bombs first, and each entry is inflated to at most the size its directory declares,
 * so an entry that lies about its size cannot grow past it.
 */
export function zipEntries(bytes: Uint8Array, name: string): Map<string, () => Uint8Array> {
  checkZip(bytes, name)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let eocd = bytes.byteLength - 22
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--
  const count = view.getUint16(eocd + 10, true)
  let offset = view.getUint32(eocd + 16, true)
  const entries = new Map<string, () => Uint8Array>()
  const decoder = new TextDecoder('utf-8', { fatal: false })
  for (let n = 0; n < count; n++) {
    const method = view.getUint16(offset + 10, true)
    const compressed = view.getUint32(offset + 20, true)
    const size = view.getUint32(offset + 24, true)
    const nameLength = view.getUint16(offset + 28, true)
    const local = view.getUint32(offset + 42, true)
    const entryName = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength))
    offset += 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true)
    entries.set(entryName, () => {
      if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== 0x04034b50) throw new ConvertError('convert_corrupt', `${name}: a broken zip entry (${entryName})`)
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
      const data = bytes.subarray(start, start + compressed)
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
