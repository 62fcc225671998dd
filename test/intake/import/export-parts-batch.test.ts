// test-runner: shares a process
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { convertBounded, DEFAULT_LIMITS, partBytes, splitExport, type SplitKind } from '../../../src/convert/index.js'
import type { Database, SqlExecutor } from '../../../src/db/index.js'
import { writeDraft, type DocumentInput, type DraftWrite } from '../../../src/intake/import/import-documents.js'
import { importExportInParts, type StreamedOptions } from '../../../src/intake/import/import-stream.js'
import { importPage, normalizeSlug } from '../../../src/pages/index.js'
import { engineTest, openTestDatabase } from '../../helpers/engines.js'

/** Parts of a few items, so a reply and the message it answers often fall in different parts. */
const SPLIT = { partItems: 7, partBytes: 1024 * 1024, maxItemBytes: 64 * 1024 }
const LIMITS = { ...DEFAULT_LIMITS, maxDrafts: 100 }

/**
 * A mailbox that touches everything a message page carries: threads (a reply before the message
 * it answers too), a text attachment that becomes its own page, an HTML-only message, a wikilink
 * to another message's subject, a mention of an entity page, and two messages with no id.
 */
function mbox(count: number): string {
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const parent = i % 4 === 0 ? null : i % 4 === 3 ? i + 1 : i - 1
    const headers = [
      `From: Sender ${i % 5} <s${i % 5}@example.org>`,
      'To: team@example.org',
      `Subject: Topic ${Math.floor(i / 4)} note ${i}`,
      `Date: Mon, 06 May 2024 ${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00 +0000`,
      ...(i % 17 === 5 ? [] : [`Message-ID: <m${i}@example.org>`]),
      ...(parent === null ? [] : [`In-Reply-To: <m${parent}@example.org>`]),
    ]
    const text = `Note ${i} on the harbour budget. Ana Lima reviewed it.${i % 6 === 2 ? ` See [[Topic ${Math.floor(i / 8)} note ${i - 2}]].` : ''}\n\n> quoted ${i}\n\n-- \nSender\n`
    let body: string
    if (i % 9 === 4) {
      body = `Content-Type: multipart/mixed; boundary="b${i}"\n\n--b${i}\nContent-Type: text/plain; charset=utf-8\n\n${text}\n--b${i}\nContent-Type: text/plain; name="notes-${i}.txt"\nContent-Disposition: attachment; filename="notes-${i}.txt"\n\nAttached notes ${i}: ledger and tide tables.\n--b${i}--\n`
    } else if (i % 11 === 7) {
      body = `Content-Type: text/html; charset=utf-8\n\n<html><body><h1>Heading ${i}</h1><p>Paragraph about the <b>harbour</b> ${i}.</p><ul><li>one</li><li>two</li></ul></body></html>\n`
    } else {
      body = `Content-Type: text/plain; charset=utf-8\n\n${text}`
    }
    out.push(`From s${i % 5}@example.org Mon May  6 09:00:00 2024\n${headers.join('\n')}\n${body}`)
  }
  return out.join('\n')
}

function chatgpt(count: number): string {
  const conversation = (i: number): unknown => ({
    id: `conv-${i}`,
    title: `Plan ${i} for the harbour`,
    create_time: 1714550400 + i * 60,
    current_node: 'c',
    mapping: {
      a: {
        id: 'a',
        parent: null,
        message: {
          author: { role: 'user' },
          content: { content_type: 'text', parts: [`Question ${i}: what does Ana Lima think of [[Plan ${i + 1} for the harbour]]?`] },
          create_time: 1714550400 + i * 60,
        },
      },
      b: {
        id: 'b',
        parent: 'a',
        message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: [`Answer ${i}.\n\n## Details\n\n${'Budget line. '.repeat(40 + i)}`] }, create_time: 1714550430 + i * 60 },
      },
      c: { id: 'c', parent: 'b', message: { author: { role: 'user' }, content: { content_type: 'text', parts: [`Thanks ${i}.`] }, create_time: 1714550450 + i * 60 } },
    },
  })
  return `[\n${Array.from({ length: count }, (_, i) => JSON.stringify(conversation(i))).join(',\n')}\n]\n`
}

interface Export {
  path: string
  input: { absolutePath: string; kind: SplitKind; name: string; sourceId: string; sourceUri: string; sourceKind: string }
}

async function exportFile(t: { teardown: (fn: () => Promise<void>) => void }, name: string, kind: SplitKind, text: string): Promise<Export> {
  const dir = await mkdtemp(join(tmpdir(), 'brain-export-batch-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const path = join(dir, name)
  await writeFile(path, text)
  return { path, input: { absolutePath: path, kind, name, sourceId: 'default', sourceUri: name, sourceKind: 'file' } }
}

/** An entity page the messages mention, written before the export as a person's brain has it. */
async function addEntity(db: Database): Promise<void> {
  await importPage(db, { slug: 'people/ana-lima', kind: 'markdown', content: '---\ntype: person\n---\n# Ana Lima\n\nReviews budgets.\n' })
}

/**
 * The export written one page at a time, each through writeDraft (one importPage), the first page
 * last: how every streamed export was written before its parts went through the batch pipeline.
 */
async function importOneByOne(db: Database, file: Export): Promise<void> {
  const sourceHash = createHash('sha256')
    .update(await readFile(file.path))
    .digest('hex')
  const document: DocumentInput = { ...file.input, bytes: new Uint8Array() }
  const writes: DraftWrite[] = []
  for await (const part of splitExport(file.input.kind, createReadStream(file.path), file.input.name, SPLIT)) {
    if ('tooLarge' in part) throw new Error('no item of these exports is too large')
    const converted = await convertBounded({ bytes: partBytes(file.input.kind, part.items, part.header), name: file.input.name, firstIndex: part.firstIndex }, LIMITS)
    for (const draft of converted.drafts) writes.push({ format: converted.format, draft, slug: normalizeSlug(draft.slugHint), sourceHash })
  }
  for (const w of [...writes.slice(1), writes[0]!]) await writeDraft(db, document, w, {})
}

/** Everything a written page is made of, by slug: its row, tags, chunks, search rows and links, and the statistics. */
async function snapshot(db: SqlExecutor): Promise<Record<string, unknown>> {
  const rows = async (sql: string): Promise<unknown[]> => (await db.query(sql)).rows
  return {
    pages: await rows(`SELECT slug, source_id, title, type, page_kind, compiled_truth, timeline, frontmatter, content_hash, source_uri, source_kind,
                              ingested_via, written_via, written_by, lines_added, lines_removed,
                              (SELECT array_agg(t.tag ORDER BY t.tag) FROM tags t WHERE t.page_id = p.id) AS tags
                       FROM pages p ORDER BY slug`),
    chunks: await rows(`SELECT p.slug, c.chunk_index, c.chunk_text, c.chunk_source, c.token_count, c.start_line, c.end_line, c.search_vector::text AS vector, c.search_length
                        FROM content_chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.slug, c.chunk_index`),
    search: await rows(`SELECT s.slug, s.chunk_index, s.search_vector::text AS vector, s.search_tiers::text AS tiers FROM search_chunks s ORDER BY s.slug, s.chunk_index`),
    links: await rows(`SELECT f.slug AS from_slug, t.slug AS to_slug, l.link_type, l.link_source, l.origin_page_id, l.origin_field, l.target_text,
                              l.target_key, l.target_rel_key, l.shown_text, l.anchor, l.line, l.context
                       FROM links l JOIN pages f ON f.id = l.from_page_id LEFT JOIN pages t ON t.id = l.to_page_id
                       ORDER BY 1, 2 NULLS FIRST, 3, l.line, l.target_text`),
    aliases: await rows(`SELECT p.slug, a.alias FROM page_aliases a JOIN pages p ON p.id = a.page_id ORDER BY 1, 2`),
    versions: await rows(`SELECT count(*)::int AS n FROM page_versions`),
    lexemes: await rows(`SELECT lexeme, chunk_count FROM search_lexeme_stats ORDER BY lexeme`),
    corpus: await rows(`SELECT chunk_count, total_length FROM search_corpus_stats`),
  }
}

for (const [name, kind, text] of [
  ['all.mbox', 'mbox', mbox(48)],
  ['export/conversations.json', 'json-array', chatgpt(24)],
] as const) {
  engineTest(t, `${name}: the pages written in parts are the pages written one at a time`, async (t, { db, engine }) => {
    const file = await exportFile(t, name.replace('/', '-'), kind, text)
    file.input.name = name
    file.input.sourceUri = name
    const before = await openTestDatabase(engine)
    t.teardown(before.cleanup)
    await addEntity(before.db)
    await importOneByOne(before.db, file)
    await addEntity(db)
    const imported = await importExportInParts(db, file.input, { split: SPLIT, limits: LIMITS, removeMissing: true })
    t.same(imported.failed, [])
    const expected = await snapshot(before.db)
    const got = await snapshot(db)
    t.ok((expected.pages as unknown[]).length > (kind === 'mbox' ? 48 : 24), 'every item is a page (attachments too), besides the entity')
    t.ok(
      (expected.links as Array<{ link_type: string; to_slug: string | null }>).some((l) => l.link_type === 'mentions'),
      'the export mentions the entity',
    )
    t.ok(
      (expected.links as Array<{ link_type: string; to_slug: string | null }>).some(
        (l) => l.link_type === 'links_to' && l.to_slug !== null && l.to_slug.startsWith(kind === 'mbox' ? 'mail/' : 'chats/'),
      ),
      'links between the pages of the export are resolved',
    )
    for (const key of Object.keys(expected)) t.same(got[key], expected[key], key)
  })
}

/** Fails every transaction once `allowed` have run: the process stopping in the middle of a part. */
function failingAfter(db: Database, allowed: number): Database {
  let transactions = 0
  return {
    capabilities: db.capabilities,
    location: db.location,
    query: (text, params, options) => db.query(text, params, options),
    exec: (sql) => db.exec(sql),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
    transaction: (fn) => (++transactions > allowed ? Promise.reject(new Error('the process stopped')) : db.transaction(fn)),
  }
}

/** Each message stored once: one page per slug, no rewritten version, statistics that count every chunk once. */
async function storedOnce(t: Test, db: Database, pages: number): Promise<void> {
  const { rows } = await db.query<{ pages: number; slugs: number; versions: number; chunks: number; counted: number; searched: number }>(
    `SELECT (SELECT count(*) FROM pages WHERE slug LIKE 'mail/%')::int AS pages,
            (SELECT count(DISTINCT slug) FROM pages WHERE slug LIKE 'mail/%')::int AS slugs,
            (SELECT count(*) FROM page_versions)::int AS versions,
            (SELECT count(*) FROM content_chunks WHERE search_vector IS NOT NULL)::int AS chunks,
            (SELECT chunk_count FROM search_corpus_stats)::int AS counted,
            (SELECT count(*) FROM search_chunks)::int AS searched`,
  )
  t.same(rows[0], { pages, slugs: pages, versions: 0, chunks: rows[0]!.chunks, counted: rows[0]!.chunks, searched: rows[0]!.chunks })
  const { rows: lexemes } = await db.query<{ wrong: number }>(
    `SELECT count(*)::int AS wrong FROM (
       SELECT l AS lexeme, count(*) AS n FROM content_chunks c, unnest(tsvector_to_array(c.search_vector)) AS l GROUP BY l) x
     FULL JOIN search_lexeme_stats s USING (lexeme) WHERE x.n IS DISTINCT FROM s.chunk_count`,
  )
  t.equal(lexemes[0]!.wrong, 0, 'every lexeme counted once per chunk')
}

engineTest(t, 'a mailbox import stopped in the middle of a part and run again stores each message once', async (t, { db }) => {
  const file = await exportFile(t, 'all.mbox', 'mbox', mbox(48))
  const options: StreamedOptions = { split: SPLIT, limits: LIMITS, removeMissing: true }
  // The batch falls back to one page at a time when its transaction fails: the third part's own
  // transaction and every single write after it fail.
  await t.rejects(importExportInParts(failingAfter(db, 2), file.input, options), /the process stopped/)
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages WHERE slug LIKE 'mail/%'`)
  t.ok(rows[0]!.n > 0 && rows[0]!.n < 48, `stopped with ${rows[0]!.n} pages in`)
  const rerun = await importExportInParts(db, file.input, options)
  t.same(rerun.failed, [])
  t.equal(rerun.unchanged, false)
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages WHERE slug LIKE 'mail/%'`)).rows[0]!.n
  t.ok(total > 48, 'every message in, with its attachment pages')
  await storedOnce(t, db, total)

  const controller = new AbortController()
  const second = await exportFile(
    t,
    'more.mbox',
    'mbox',
    mbox(48)
      .replace(/example\.org/g, 'example.net')
      .replace(/Topic /g, 'Subject '),
  )
  const stopped = importExportInParts(db, second.input, { ...options, signal: controller.signal, onItems: (n) => n >= 21 && controller.abort() })
  await t.rejects(stopped, { name: 'AbortError' })
  await importExportInParts(db, second.input, options)
  const { rows: after } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages WHERE slug LIKE 'mail/%'`)
  t.equal(after[0]!.n, 2 * total, 'the second mailbox, aborted and run again, is in once too')
  await storedOnce(t, db, 2 * total)
  t.equal((await importExportInParts(db, second.input, options)).unchanged, true, 'a third run finds it all in')
})

engineTest(t, 'a newer mailbox with one more message writes that message and the first page only', async (t, { db }) => {
  const text = mbox(30)
  const file = await exportFile(t, 'all.mbox', 'mbox', text)
  const first = await importExportInParts(db, file.input, { split: SPLIT, limits: LIMITS, removeMissing: true })
  await writeFile(file.path, `${text}\nFrom late@example.org Mon May  6 10:00:00 2024\nFrom: Late <late@example.org>\nSubject: One more\nMessage-ID: <late@example.org>\n\nLate news.\n`)
  const statuses: string[] = []
  const second = await importExportInParts(db, file.input, { split: SPLIT, limits: LIMITS, removeMissing: true, onPage: (p) => statuses.push(`${p.status} ${p.slug}`) })
  t.not(second.sourceHash, first.sourceHash)
  const written = statuses.filter((s) => !s.startsWith('skipped'))
  t.equal(written.length, 2, 'the new message, and the first page that carries the new hash')
  t.ok(written.some((s) => s.startsWith('created mail/') && s.includes('one-more')))
  t.ok(written.some((s) => s.startsWith('updated ')))
  t.equal(statuses.length - written.length, (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages`)).rows[0]!.n - 2, 'every other page is skipped')
  const { rows } = await db.query<{ hash: string; n: number }>(`SELECT frontmatter ->> 'source_hash' AS hash, count(*)::int AS n FROM pages GROUP BY 1 ORDER BY 2`)
  t.same(
    rows.map((r) => [r.hash, r.n > 2 ? 'many' : r.n]),
    [
      [second.sourceHash, 2],
      [first.sourceHash, 'many'],
    ],
    'the pages left as they were keep the hash of the version that wrote them',
  )
  t.equal((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM page_versions`)).rows[0]!.n, 1, 'only the first page was rewritten')
  t.equal((await importExportInParts(db, file.input, { split: SPLIT, limits: LIMITS })).unchanged, true)
})
