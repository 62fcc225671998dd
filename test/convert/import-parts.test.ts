// test-runner: shares a process
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertBounded, DEFAULT_LIMITS } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { importExportInParts, type StreamedOptions } from '../../src/intake/import/import-stream.js'
import { countPages, type ImportResult } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

/** Smaller than a real import's, so a few hundred messages cross many parts and the per-file limit. */
const SPLIT = { partItems: 40, partBytes: 1024 * 1024, maxItemBytes: 16 * 1024 }
const LIMITS = { ...DEFAULT_LIMITS, maxDrafts: 100 }
const MESSAGES = 450
const TOO_LARGE = 200

function mbox(count: number): string {
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const body = i === TOO_LARGE ? 'z'.repeat(20_000) : `Message number ${i} about the harbour budget.`
    out.push(
      `From s${i % 7}@example.org Mon May  6 09:00:00 2024\nFrom: Sender ${i % 7} <s${i % 7}@example.org>\nSubject: Note ${i}\nDate: Mon, 06 May 2024 09:${String(i % 60).padStart(2, '0')}:00 +0000\nMessage-ID: <n${i}@example.org>\n\n${body}\n`,
    )
  }
  return out.join('\n')
}

function chatgpt(count: number): string {
  const conversation = (i: number): unknown => ({
    id: `conv-${i}`,
    title: `Plan ${i}: "brackets" ] } [ and \\ slashes`,
    create_time: 1714550400 + i,
    current_node: 'b',
    mapping: {
      a: { id: 'a', parent: null, message: { author: { role: 'user' }, content: { content_type: 'text', parts: [`Question ${i} { about ] the plan`] }, create_time: 1714550400 } },
      b: { id: 'b', parent: 'a', message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: [`Answer ${i}.`] }, create_time: 1714550460 } },
    },
  })
  return `[\n${Array.from({ length: count }, (_, i) => JSON.stringify(conversation(i))).join(',\n')}\n]\n`
}

async function tempFile(t: { teardown: (fn: () => Promise<void>) => void }, name: string, text: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'brain-parts-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const path = join(dir, name)
  await writeFile(path, text)
  return { dir, path }
}

engineTest(t, 'a mailbox past the per-file limit imports whole in parts; a message too large fails alone; a re-run skips', async (t, { db }) => {
  const text = mbox(MESSAGES)
  const { path } = await tempFile(t, 'big.mbox', text)
  await t.rejects(convertBounded({ bytes: Buffer.from(text), name: 'big.mbox' }, LIMITS), { code: 'convert_too_many_pages' }, 'whole, the mailbox is past the limit')
  const input = { absolutePath: path, kind: 'mbox' as const, name: 'big.mbox', sourceId: 'default', sourceUri: 'big.mbox', sourceKind: 'file' }
  const statuses: ImportResult['status'][] = []
  const items: number[] = []
  const options: StreamedOptions = { split: SPLIT, limits: LIMITS, removeMissing: true, onPage: (p) => statuses.push(p.status), onItems: (n) => items.push(n) }
  const first = await importExportInParts(db, input, options)
  t.equal(first.items, MESSAGES)
  t.equal(first.format, 'mbox')
  t.same(
    first.failed.map((f) => [f.path, f.code]),
    [[`big.mbox (item ${TOO_LARGE + 1})`, 'convert_too_large']],
  )
  t.equal(statuses.filter((s) => s === 'created').length, MESSAGES - 1)
  t.ok(items.length > MESSAGES / SPLIT.partItems - 1, 'progress after each part')
  t.equal(await countPages(db), MESSAGES - 1)
  const { rows } = await db.query<{ title: string; frontmatter: Record<string, unknown> }>(`SELECT title, frontmatter FROM pages WHERE title IN ('Note 0', 'Note 449') ORDER BY title`)
  t.same(
    rows.map((r) => [r.title, r.frontmatter.source_format]),
    [
      ['Note 0', 'mbox'],
      ['Note 449', 'mbox'],
    ],
  )

  statuses.length = 0
  const again = await importExportInParts(db, input, options)
  t.equal(again.unchanged, true, 'the same bytes again: nothing converted past the first part, nothing written')
  t.same(statuses, [])
})

engineTest(t, 'an import stopped midway goes on where it stopped: pages already in are skipped', async (t, { db }) => {
  const { path } = await tempFile(t, 'conversations.json', chatgpt(130))
  const input = { absolutePath: path, kind: 'json-array' as const, name: 'export/conversations.json', sourceId: 'default', sourceUri: 'export/conversations.json', sourceKind: 'file' }
  const controller = new AbortController()
  const stopped = importExportInParts(db, input, { split: SPLIT, limits: LIMITS, signal: controller.signal, onItems: (n) => n >= 80 && controller.abort() })
  await t.rejects(stopped, { name: 'AbortError' })
  const partial = await countPages(db)
  t.ok(partial >= 79 && partial < 130, `stopped with ${partial} of 130 conversations in`)
  const statuses: ImportResult['status'][] = []
  const rerun = await importExportInParts(db, input, { split: SPLIT, limits: LIMITS, removeMissing: true, onPage: (p) => statuses.push(p.status) })
  t.equal(rerun.unchanged, false, 'the first page is written last, so a stopped import is not taken as done')
  t.same(rerun.failed, [])
  t.equal(statuses.filter((s) => s === 'skipped').length, partial, 'the pages already in are skipped')
  t.equal(statuses.filter((s) => s !== 'skipped').length, 130 - partial, 'the rest are written, the first page among them')
  t.equal(await countPages(db), 130)
  const { rows } = await db.query<{ title: string }>(`SELECT title FROM pages WHERE slug LIKE 'chats/chatgpt/plan-129%'`)
  t.same(
    rows.map((r) => r.title),
    ['Plan 129: "brackets" ] } [ and \\ slashes'],
  )
  const third = await importExportInParts(db, input, { split: SPLIT, limits: LIMITS })
  t.equal(third.unchanged, true)
})

engineTest(t, 'a folder import reads a mailbox in parts, with progress, counted as one mbox document', async (t, { db }) => {
  const { dir } = await tempFile(t, 'all.mbox', mbox(30).replace(/z{20000}/, 'small'))
  const progress: string[] = []
  const result = await importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto', onProgress: (p) => p.path && progress.push(p.path) })
  t.same(result.failed, [])
  t.equal(result.created, 30)
  t.match(result.formats, { mbox: { files: 1, pages: 30 } })
  t.ok(progress.includes('all.mbox: 30 read'), 'progress names the items read')
  const again = await importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(again.created + again.updated, 0)
  t.match(again.formats, { unchanged: { unchanged: 1 } })
})
