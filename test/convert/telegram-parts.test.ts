// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convert, convertBounded, DEFAULT_LIMITS, partBytes, splitExport, splitKindFor, type ExportPart, type SplitOptions } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { importExportInParts } from '../../src/intake/import/import-stream.js'
import { countPages } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

interface Message {
  id: number
  type: string
  date: string
  from?: string
  text: unknown
}

/** Messages over `months` months, with text that looks like structure to a careless scanner. */
function messages(count: number, months: number, from = 'Ada'): Message[] {
  return Array.from({ length: count }, (_, i) => {
    const month = Math.floor((i * months) / count)
    const date = `2024-${String(month + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}T09:${String(i % 60).padStart(2, '0')}:00`
    const text = i % 5 === 0 ? ['Plain ', { type: 'bold', text: `bold ${i}` }, ' "quoted" ] } ['] : `Message ${i} about the harbour { "messages": [ ] } \\ ünïcødé ✓`
    return { id: i, type: 'message', date, from, text }
  })
}

function chatExport(count: number, months: number): string {
  return JSON.stringify({ name: 'Harbour "crew"', type: 'private_group', id: 4242, messages: messages(count, months) }, null, 1)
}

function accountExport(): string {
  return JSON.stringify({
    about: 'Here is the data you requested.',
    personal_information: { user_id: 1, first_name: 'Ada', messages: [{ not: 'a chat' }] },
    chats: {
      about: 'This page lists all chats from this export.',
      list: [
        { name: 'Ben', type: 'personal_chat', id: 7, messages: messages(30, 3, 'Ben') },
        { name: 'Empty', type: 'personal_chat', id: 8, messages: [] },
        { name: 'Cleo', type: 'personal_chat', id: 9, messages: messages(12, 2, 'Cleo') },
      ],
    },
    left_chats: { about: 'Left', list: [{ name: 'Old group', type: 'private_supergroup', id: 10, messages: messages(5, 1, 'Dan') }] },
  })
}

async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function parts(text: string, size: number, options: SplitOptions): Promise<ExportPart[]> {
  const out: ExportPart[] = []
  for await (const part of splitExport('telegram', chunked(text, size), 'result.json', options)) out.push(part)
  return out
}

type Chat = { name?: string; type?: string; id?: number; messages: Message[] }
const chatOf = (part: ExportPart): Chat => JSON.parse(partBytes('telegram', 'items' in part ? part.items : [], 'items' in part ? part.header : undefined).toString()) as Chat

t.test('a chat export splits into parts of whole messages with the chat, across any chunk size', async (t) => {
  const text = chatExport(60, 3)
  t.equal(splitKindFor('ChatExport_2024-05-01/result.json', Buffer.from(text.slice(0, 4096))), 'telegram')
  for (const size of [1, 2, 3, 7, 64, 1000, 1 << 20]) {
    const got = await parts(text, size, { partItems: 8, partBytes: 1 << 20, maxItemBytes: 1 << 20 })
    const chats = got.map(chatOf)
    t.same(
      chats.flatMap((c) => c.messages),
      messages(60, 3),
      `chunks of ${size}: every message, whole, in order`,
    )
    t.ok(
      chats.every((c) => c.name === 'Harbour "crew"' && c.type === 'private_group' && c.id === 4242),
      'each part carries its chat',
    )
    t.same(
      chats.map((c) => new Set(c.messages.map((m) => m.date.slice(0, 7))).size),
      [1, 1, 1],
      'a part ends only where a month ends, so no month is in two parts',
    )
  }
})

t.test('an account export: the messages of each chat and left chat, parts never span two chats', async (t) => {
  for (const size of [1, 5, 333, 1 << 20]) {
    const got = await parts(accountExport(), size, { partItems: 4, partBytes: 1 << 20, maxItemBytes: 1 << 20 })
    const chats = got.map(chatOf)
    t.same([...new Set(chats.map((c) => c.name))], ['Ben', 'Cleo', 'Old group'], `chunks of ${size}`)
    t.same(
      chats.filter((c) => c.name === 'Cleo').flatMap((c) => c.messages),
      messages(12, 2, 'Cleo'),
    )
    t.equal(
      chats.reduce((n, c) => n + c.messages.length, 0),
      47,
    )
  }
})

t.test('a message too large to hold is reported alone; a file that is not a JSON object is refused', async (t) => {
  const text = JSON.stringify({ name: 'Big', type: 'personal_chat', id: 1, messages: [messages(1, 1)[0], { ...messages(2, 1)[1], text: 'x'.repeat(5000) }, messages(3, 1)[2]] })
  const got = await parts(text, 100, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 1000 })
  t.same(
    got.map((p) => ('items' in p ? p.items.length : `too large at ${p.firstIndex}`)),
    ['too large at 1', 2],
    'the messages around it stay one part: they are one month',
  )
  await t.rejects(parts('[1, 2]', 3, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 1000 }), { code: 'convert_unsupported' })
  await t.rejects(parts('{"name": "x", "messages": [', 3, { partItems: 10, partBytes: 1 << 20, maxItemBytes: 1000 }), { code: 'convert_corrupt' })
})

/** Smaller than a real import's, so a modest export is past the per-file limit and crosses many parts. */
const SPLIT = { partItems: 200, partBytes: 64 * 1024, maxItemBytes: 16 * 1024 }
const LIMITS = { ...DEFAULT_LIMITS, maxBytes: 256 * 1024 }

engineTest(t, 'a Telegram export past the per-file limit imports whole in parts, the same pages as read whole', async (t, { db }) => {
  const text = chatExport(3000, 12)
  t.ok(Buffer.byteLength(text) > 2 * LIMITS.maxBytes, 'the export is past the limit')
  await t.rejects(convertBounded({ bytes: Buffer.from(text), name: 'ChatExport_2024/result.json' }, LIMITS), { code: 'convert_too_large' }, 'whole, it is refused')
  const whole = await convert({ bytes: Buffer.from(text), name: 'ChatExport_2024/result.json' }, { ...DEFAULT_LIMITS })

  const dir = await mkdtemp(join(tmpdir(), 'brain-telegram-parts-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'ChatExport_2024'))
  const path = join(dir, 'ChatExport_2024', 'result.json')
  await writeFile(path, text)
  const input = { absolutePath: path, kind: 'telegram' as const, name: 'ChatExport_2024/result.json', sourceId: 'default', sourceUri: 'ChatExport_2024/result.json', sourceKind: 'file' }
  const first = await importExportInParts(db, input, { split: SPLIT, limits: LIMITS, removeMissing: true })
  t.same(first.failed, [])
  t.equal(first.items, 3000)
  t.equal(first.format, 'telegram')
  t.equal(await countPages(db), 12, 'one page per month')
  const { rows } = await db.query<{ slug: string; compiled_truth: string }>(`SELECT slug, compiled_truth FROM pages ORDER BY slug`)
  const drafts = [...whole.drafts].sort((a, b) => (a.slugHint < b.slugHint ? -1 : 1))
  t.same(
    rows.map((r) => r.slug),
    drafts.map((d) => d.slugHint),
    'the same pages as the export read whole',
  )
  for (const [i, row] of rows.entries()) {
    const messagesIn = (body: string) => body.match(/Message \d+ about|bold \d+/g) ?? []
    t.same(messagesIn(row.compiled_truth), messagesIn(drafts[i]!.body), `${row.slug}: every message of the month`)
  }
  const again = await importExportInParts(db, input, { split: SPLIT, limits: LIMITS })
  t.equal(again.unchanged, true, 'a re-run of the same export skips it')
})

engineTest(t, 'a folder import reads a Telegram result.json in parts', async (t, { db }) => {
  const dir = await mkdtemp(join(tmpdir(), 'brain-telegram-folder-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'DataExport_2024'))
  await writeFile(join(dir, 'DataExport_2024', 'result.json'), accountExport())
  const progress: string[] = []
  const result = await importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto', onProgress: (p) => p.path && progress.push(p.path) })
  t.same(result.failed, [])
  t.match(result.formats, { telegram: { files: 1 } })
  t.match(result.documentCounts, { conversations: 3, messages: 47 }, 'each chat counted once, though it spans parts')
  t.ok(progress.includes('DataExport_2024/result.json: 47 read'), 'progress names the messages read')
  t.equal(await countPages(db), 3 + 2 + 1)
})
