import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib'
import t from 'tap'
import { convert } from '../../src/convert/index.js'
import { docxParts } from './docx-fixtures.js'
import { epubParts } from './epub-fixtures.js'

/** What the lying member really inflates to: far past the memory the assertion allows. */
const REAL_SIZE = 1536 * 1024 * 1024

/** REAL_SIZE bytes of spaces deflated as one stream (about 1.5 MB), made chunk by chunk. */
async function deflatedSpaces(): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  const block = Buffer.alloc(16 * 1024 * 1024, 0x20)
  for (let written = 0; written < REAL_SIZE; written += block.length) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await done
  return Buffer.concat(out)
}

interface Member {
  name: string
  packed: Buffer
  /** What the headers say it inflates to. */
  size: number
  crc: number
}

const member = (name: string, text: string): Member => ({ name, packed: deflateRawSync(Buffer.from(text)), size: Buffer.byteLength(text), crc: crc32(text) })

/** A zip of already deflated members, with whatever sizes their headers are given. */
function zipOf(members: readonly Member[]): Buffer {
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const m of members) {
    const name = Buffer.from(m.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(m.crc, 14)
    local.writeUInt32LE(m.packed.length, 18)
    local.writeUInt32LE(m.size, 22)
    local.writeUInt16LE(name.length, 26)
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    entry.writeUInt16LE(20, 4)
    entry.writeUInt16LE(20, 6)
    entry.writeUInt16LE(8, 10)
    entry.writeUInt32LE(m.crc, 16)
    entry.writeUInt32LE(m.packed.length, 20)
    entry.writeUInt32LE(m.size, 24)
    entry.writeUInt16LE(name.length, 28)
    entry.writeUInt32LE(offset, 42)
    locals.push(local, name, m.packed)
    central.push(entry, name)
    offset += 30 + name.length + m.packed.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(members.length, 8)
  end.writeUInt16LE(members.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** The format's parts, with `liar` replaced by the member whose header understates its size. */
function withLiar(parts: Record<string, string>, liar: string, packed: Buffer): Buffer {
  return zipOf(Object.entries(parts).map(([name, text]) => (name === liar ? { name, packed, size: 4096, crc: 0 } : member(name, text))))
}

const odtParts = (): Record<string, string> => ({
  mimetype: 'application/vnd.oasis.opendocument.text',
  'content.xml': '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>',
})

const pptxParts = (): Record<string, string> => ({
  '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
  'ppt/presentation.xml': '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
  'ppt/_rels/presentation.xml.rels': '<?xml version="1.0"?><Relationships/>',
})

t.test('a zip member whose header understates its size stops at the limit in every zip format, memory bounded', async (t) => {
  const packed = await deflatedSpaces()
  t.ok(packed.length < 4 * 1024 * 1024, 'the archive itself is small')
  const cases: [string, Buffer][] = [
    ['liar.docx', withLiar(docxParts(), 'word/document.xml', packed)],
    ['liar.epub', withLiar(epubParts(), 'OEBPS/content.opf', packed)],
    ['liar.odt', withLiar(odtParts(), 'content.xml', packed)],
    ['liar.pptx', withLiar(pptxParts(), 'ppt/presentation.xml', packed)],
  ]
  for (const [name, bytes] of cases) {
    await t.rejects(convert({ bytes, name }), { code: 'convert_archive_bomb', message: /expands past 4096 bytes/ }, name)
  }
  // The high-water mark of this process: inflating any one member whole would pass it.
  const peakMb = process.resourceUsage().maxRSS / 1024
  t.ok(peakMb < 1024, `peak resident memory ${Math.round(peakMb)} MB stays below the member's real size`)
})
