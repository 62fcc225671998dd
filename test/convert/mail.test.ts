// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convert } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { findPage } from '../../src/pages/index.js'
import { getBacklinks } from '../../src/links/index.js'
import { engineTest } from '../helpers/engines.js'
import { makePdf } from './pdf-fixtures.js'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

async function threadMbox(): Promise<string> {
  const pdf = Buffer.from(await makePdf([{ lines: ['Budget table inside the attachment.'] }], { title: 'Budget 2024' }))
    .toString('base64')
    .replace(/.{76}/g, '$&\n')
  const first = [
    'From ada@example.org Mon May  6 09:00:00 2024',
    'From: Ada Lovelace <ada@example.org>',
    'To: Charles Babbage <charles@example.org>',
    'Cc: team@example.org',
    'Subject: Budget for the engine',
    'Date: Mon, 06 May 2024 09:00:00 +0000',
    'Message-ID: <m1@example.org>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="B1"',
    '',
    '--B1',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><body><p>Here is the <b>budget</b> for the engine.</p><ul><li>gears</li><li>cards</li></ul></body></html>',
    '--B1',
    'Content-Type: application/pdf; name="budget.pdf"',
    'Content-Disposition: attachment; filename="budget.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    pdf,
    '--B1--',
    '',
  ].join('\n')
  const reply = [
    'From charles@example.org Mon May  6 10:00:00 2024',
    'From: Charles Babbage <charles@example.org>',
    'To: Ada Lovelace <ada@example.org>',
    'Subject: Re: Budget for the engine',
    'Date: Mon, 06 May 2024 10:00:00 +0000',
    'Message-ID: <m2@example.org>',
    'In-Reply-To: <m1@example.org>',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Looks right to me. Ship it.',
    '>From the archive: escaped line kept.',
    '',
    'On Mon, 6 May 2024, Ada Lovelace wrote:',
    '> Here is the budget for the engine.',
    '> - gears',
    '',
    '-- ',
    'Charles Babbage, Analytical Engines Ltd.',
    '',
  ].join('\n')
  return first + reply
}

t.test('mbox thread: one page per message, HTML converted, reply folded and linked, PDF attachment its own page', async (t) => {
  const r = await convert({ bytes: enc(await threadMbox()), name: 'thread.mbox' })
  t.equal(r.format, 'mbox')
  t.same(r.counts, { messages: 2, attachment_pages: 1 })
  const [first, attachment, reply] = r.drafts
  t.match(first!.slugHint, /^mail\/2024-05-06-budget-for-the-engine-[0-9a-f]{8}$/)
  t.match(first!.frontmatter, {
    type: 'email',
    from: 'Ada Lovelace <ada@example.org>',
    to: ['Charles Babbage <charles@example.org>'],
    cc: ['team@example.org'],
    subject: 'Budget for the engine',
    message_id: '<m1@example.org>',
  })
  t.match(first!.body, /Here is the \*\*budget\*\* for the engine\.\n\n- gears\n- cards/)
  t.match(first!.body, /## Attachments\n\n- \[budget\.pdf \(application\/pdf, \d+ bytes\)\]\(mail\/.+\/budget\)/)
  t.equal(attachment!.slugHint, `${first!.slugHint}/budget`)
  t.match(attachment!.frontmatter, { source_format: 'pdf', attachment_of: first!.slugHint })
  t.match(attachment!.body, /Budget table inside the attachment/)
  t.match(reply!.frontmatter, { in_reply_to: '<m1@example.org>', in_reply_to_page: first!.slugHint })
  t.match(reply!.body, new RegExp(`In reply to \\[${first!.slugHint}\\]\\(${first!.slugHint}\\)`))
  t.match(reply!.body, /Looks right to me\. Ship it\.\nFrom the archive: escaped line kept\./)
  t.match(reply!.body, /> …quoted text folded…/)
  t.notMatch(reply!.body, /Ada Lovelace wrote|> - gears|Analytical Engines Ltd/)
})

t.test('eml: a single message; bytes that are no message are refused', async (t) => {
  const r = await convert({ bytes: enc('From: a@example.org\nSubject: Hello\nMessage-ID: <x@y>\n\nBody text.\n'), name: 'hello.eml' })
  t.equal(r.format, 'eml')
  t.match(r.drafts[0]!, { title: 'Hello', body: /Body text\./ })
  await t.rejects(convert({ bytes: enc('\n\n'), name: 'empty.eml' }), { code: /convert_/ })
})

t.test('a subject with accents or in another script names its page: accents folded, other scripts kept', async (t) => {
  const message = (subject: string, id: string): string =>
    [`From: a@example.org`, `Subject: ${subject}`, 'Date: Mon, 06 May 2024 09:00:00 +0000', `Message-ID: <${id}@example.org>`, '', 'Body.', ''].join('\n')
  const slug = async (subject: string, id: string): Promise<string> => (await convert({ bytes: enc(message(subject, id)), name: `${id}.eml` })).drafts[0]!.slugHint
  t.match(await slug('=?utf-8?q?R=C3=A9sum=C3=A9_of_the_na=C3=AFve_plan?=', 'r1'), /^mail\/2024-05-06-resume-of-the-naive-plan-[0-9a-f]{8}$/)
  t.match(await slug('=?utf-8?b?5Lya6K6u57qq6KaB?=', 'r2'), /^mail\/2024-05-06-会议纪要-[0-9a-f]{8}$/)
  t.match(await slug('Budget: Q3 / Q4 (draft)', 'r3'), /^mail\/2024-05-06-budget-q3-q4-draft-[0-9a-f]{8}$/)
  t.match(await slug('!!!', 'r4'), /^mail\/2024-05-06-untitled-[0-9a-f]{8}$/)
})

t.test("a message's own headings nest under its subject", async (t) => {
  const html = '<html><body><h1>News</h1><p>Widgets are back.</p><h2>More</h2><p>Soon.</p></body></html>'
  const eml = ['From: news@example.org', 'Subject: Newsletter', 'Message-ID: <n1@example.org>', 'Content-Type: text/html; charset=utf-8', '', html, ''].join('\n')
  const d = (await convert({ bytes: enc(eml), name: 'news.eml' })).drafts[0]!
  t.match(d.body, /^# Newsletter\n\n## News\n\nWidgets are back\.\n\n### More\n\nSoon\./)
})

engineTest(t, 'import: mbox, eml and Maildir messages become mail/ pages; the thread links up', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-mail-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'thread.mbox'), await threadMbox())
  await mkdir(join(root, 'Maildir', 'cur'), { recursive: true })
  await writeFile(join(root, 'Maildir', 'cur', '1714990000.M1P2.host:2,S'), 'From: b@example.org\nSubject: From maildir\nMessage-ID: <md1@example.org>\n\nMaildir body.\n')
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.match(result.formats, { mbox: { files: 1, pages: 3 }, eml: { files: 1, pages: 1 } })
  const { rows } = await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE slug LIKE 'mail/%' ORDER BY slug`)
  t.equal(rows.length, 4)
  const reply = rows.find((r) => r.slug.startsWith('mail/2024-05-06-re-budget'))!
  const page = await findPage(db, 'default', reply.slug)
  t.match(page!.frontmatter, { source_format: 'mbox', in_reply_to: '<m1@example.org>' })
  // The graph: the first message's backlinks list its reply; the attachment's list the message.
  const first = rows.find((r) => r.slug.startsWith('mail/2024-05-06-budget') && !r.slug.endsWith('/budget'))!
  t.same(
    (await getBacklinks(db, first.slug)).map((l) => l.fromSlug),
    [reply.slug],
    'the reply links to the message it answers',
  )
  t.same(
    (await getBacklinks(db, `${first.slug}/budget`)).map((l) => l.fromSlug),
    [first.slug],
    'the message links to its attachment',
  )
  const again = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(again.created + again.updated, 0)
})
