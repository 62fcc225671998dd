// test-runner: shares a process
import t from 'tap'
import { partBytes, splitExport, splitKindFor, type ExportPart, type SplitOptions } from '../../src/convert/index.js'

/** The bytes as a stream of chunks of `size` bytes, so items and lines cross chunk boundaries. */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function parts(kind: 'mbox' | 'json-array', text: string, size: number, options: SplitOptions): Promise<ExportPart[]> {
  const out: ExportPart[] = []
  for await (const part of splitExport(kind, chunked(text, size), 'test', options)) out.push(part)
  return out
}

const texts = (part: ExportPart): string[] => ('items' in part ? part.items.map((i) => i.toString()) : [`<too large: ${part.tooLarge}>`])

const message = (i: number, body = `body ${i}`): string => `From a${i}@x Mon May  6 09:00:00 2024\nSubject: m${i}\n\n${body}\n>From the quoted line\n`

t.test('an mbox splits at its From lines into parts of whole messages, across any chunk size', async (t) => {
  const mbox = `preamble that is no message\n${Array.from({ length: 7 }, (_, i) => message(i)).join('')}`
  for (const size of [1, 7, 64, 100_000]) {
    const got = await parts('mbox', mbox, size, { partItems: 3, partBytes: 1 << 20, maxItemBytes: 1 << 20 })
    t.same(
      got.map((p) => p.firstIndex),
      [0, 3, 6],
      `chunks of ${size}`,
    )
    t.same(
      got.flatMap(texts),
      Array.from({ length: 7 }, (_, i) => message(i)),
      `chunks of ${size}: each message whole, with its From line`,
    )
  }
  const last = await parts('mbox', `${message(0)}${message(1).trimEnd()}`, 5, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 1 << 20 })
  t.same(last.flatMap(texts), [message(0), message(1).trimEnd()], 'a last line without a line end')
  const bytesCut = await parts('mbox', Array.from({ length: 4 }, (_, i) => message(i)).join(''), 9, { partItems: 10, partBytes: message(0).length * 2, maxItemBytes: 1 << 20 })
  t.same(
    bytesCut.map((p) => texts(p).length),
    [2, 2],
    'a part ends before the message that would take it past its bytes',
  )
})

t.test('an item past the item limit is reported, not held, and the items around it go on', async (t) => {
  const huge = 'x'.repeat(5000)
  const mbox = [message(0), message(1, huge), message(2, `${huge}\n${huge}`), message(3)].join('')
  const got = await parts('mbox', mbox, 512, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 4096 })
  t.same(
    got.map((p) => [p.firstIndex, 'tooLarge' in p]),
    [
      [0, false],
      [1, true],
      [2, true],
      [3, false],
    ],
  )
  t.same(texts(got[3]!), [message(3)], 'the message after a line too long to hold starts at its own From line')
  const json = `[{"a":1},"${huge}",{"b":2}]`
  const elements = await parts('json-array', json, 333, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 4096 })
  t.same(elements.map(texts), [['{"a":1}'], ['<too large: 5002>'], ['{"b":2}']])
})

t.test('a JSON array splits between its elements; strings with brackets, quotes and escapes stay whole', async (t) => {
  const elements = [{ title: 'a ] b } c [ {', text: 'say "hi" \\ "there"\\' }, { nested: [[1, 2], { x: ']' }], e: '\\"' }, 42, 'plain', null, { unicode: 'é ✓ \u2028' }]
  const json = `\ufeff \n[ ${elements.map((e) => JSON.stringify(e, null, 1)).join(' ,\n ')} ]\n`
  for (const size of [1, 3, 50, 100_000]) {
    const got = await parts('json-array', json, size, { partItems: 4, partBytes: 1 << 20, maxItemBytes: 1 << 20 })
    t.same(
      got.map((p) => p.firstIndex),
      [0, 4],
      `chunks of ${size}`,
    )
    const back = got.flatMap((p) => ('items' in p ? (JSON.parse(partBytes('json-array', p.items).toString()) as unknown[]) : []))
    t.same(back, elements, `chunks of ${size}: every element parses back as it was`)
  }
  t.same(await parts('json-array', '[]', 1, { partItems: 4, partBytes: 1 << 20, maxItemBytes: 1 << 20 }), [])
  await t.rejects(parts('json-array', '[{"a": 1}, {"b": ', 4, { partItems: 4, partBytes: 1 << 20, maxItemBytes: 1 << 20 }), { code: 'convert_corrupt' }, 'cut short')
  await t.rejects(parts('json-array', '{"a": 1}', 4, { partItems: 4, partBytes: 1 << 20, maxItemBytes: 1 << 20 }), { code: 'convert_unsupported' }, 'not an array')
})

t.test('which files are read in parts', async (t) => {
  const head = (s: string): Uint8Array => Buffer.from(s)
  t.equal(splitKindFor('mail/all.mbox', head('From a@x')), 'mbox')
  t.equal(splitKindFor('export/conversations.json', head('  [{"mapping"')), 'json-array')
  t.equal(splitKindFor('logs/session.jsonl', head('{"type":"user"}')), null, 'an agent log is one conversation')
  t.equal(splitKindFor('notes/a.md', head('# A')), null)
})
