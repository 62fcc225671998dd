// test-runner: shares a process
import t from 'tap'
import { convert, convertBounded, converterFor, DEFAULT_LIMITS, exportFolders } from '../../src/convert/index.js'
import { zip } from './docx-fixtures.js'
import { telegramChat, telegramHtmlExport, telegramHtmlPage } from './messenger-fixtures.js'

const encode = (text: string) => new TextEncoder().encode(text)
const filesOf = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([name, text]) => [name, encode(text)]))

/** The messages files of the export, as a folder import hands them over. */
function exportInput(name = 'ChatExport_2024-02-01') {
  const all = telegramHtmlExport()
  return { bytes: new Uint8Array(), name, files: filesOf({ 'messages.html': all['messages.html']!, 'messages2.html': all['messages2.html']! }) }
}

t.test('a Telegram HTML export is one chat: a page per month, the numbered files read in order', async (t) => {
  const r = await convertBounded(exportInput())
  t.equal(r.format, 'telegram')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['chats/telegram/rowing-club/2024-01', 'Rowing club — 2024-01'],
      ['chats/telegram/rowing-club/2024-02', 'Rowing club — 2024-02'],
    ],
  )
  t.same(r.counts, { conversations: 1, secrets_scrubbed: 0, messages: 10 })
  const january = r.drafts[0]!
  t.match(january.frontmatter, { type: 'conversation', source_format: 'telegram', chat: 'Rowing club', month: '2024-01', messages: 8, participants: ['Ines', 'Tom'], created: '2024-01-15 10:30' })
  t.match(january.body, /\*\*Tom\*\*, 23:58: \[voice message\]\n\n\*\*Ines\*\*, 23:59: \[sticker\]\n/, 'the month runs on into the second file')
  t.notMatch(january.body, /15 January 2024|31 January 2024/, 'date separators are the day sections, not lines')
  t.equal(january.body.match(/## 2024-01-31/g)?.length, 1, 'one section for a day split over two files')
})

t.test('speakers, joined messages, forwards, media and formatting as the JSON export gives them', async (t) => {
  const [january, february] = (await convertBounded(exportInput())).drafts.map((d) => d.body)
  t.match(
    january,
    /## 2024-01-15\n\n\*10:30\* · Ines created group «Rowing club»\n\n\*\*Ines\*\*, 10:30: Training moved to \*\*six\*\*\n/,
    'a service line without a speaker, at the time of the message after it',
  )
  t.match(january, /\*\*Ines\*\*, 10:31: See \[the schedule\]\(https:\/\/example\.org\/rowing\)\nand _be early_, gate code `4711`\n/, 'a joined message is the same sender’s; a line break kept')
  t.match(january, /\*\*Tom\*\*, 11:00: \[photo\] Regatta photo/)
  t.match(january, /\*\*Tom\*\*, 11:05: \(forwarded from Coach Mara\) Row at \*\*dawn\*\*/, 'the forward’s sender without its date')
  t.match(january, /\*\*Ines\*\*, 12:00: \[file: race-plan\.pdf\] Plan here\n/, 'the reply line dropped, a script link kept as its text, the bot left out of the name')
  t.notMatch(january, /In reply to|javascript|planbot|12\.3 KB/)
  t.match(february, /## 2024-02-01\n\n\*07:15\* · Tom pinned a message\n\n\*\*Tom\*\*, 07:15:\n```\nlet boats = 2\nboats \+= 1\n```/, 'a code block with its lines')
})

t.test('code keeps its indentation, also after a fence of its own', async (t) => {
  const code = '<pre class="language-md">intro<br>```<br>  indented<br>```<br>    deeper</pre>'
  const page = telegramHtmlPage(
    'Code',
    `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="01.01.2024 10:00:00"></div><div class="from_name">Ana</div><div class="text">\nLook:<br>${code}\n   after  </div></div></div>`,
  )
  const r = await convert({ bytes: encode(page), name: 'messages.html' })
  t.match(r.drafts[0]!.body, /\*\*Ana\*\*, 10:00: Look:\n\n````md\nintro\n```\n  indented\n```\n    deeper\n````\nafter\n/)
})

t.test('a date title with its zone or, from older versions, without: the clock the writer saw', async (t) => {
  const page = (title: string) =>
    telegramHtmlPage(
      'Clocks',
      `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="${title}">x</div><div class="from_name">Ana</div><div class="text">hi</div></div></div>`,
    )
  for (const title of ['05.03.2023 23:45:10 UTC-08:00', '05.03.2023 23:45:10', '5.3.2023 23:45:10 UTC+14:00']) {
    const r = await convert({ bytes: encode(page(title)), name: 'messages.html' })
    t.same([r.drafts[0]!.slugHint, r.drafts[0]!.frontmatter.created], ['chats/telegram/clocks/2023-03', '2023-03-05 23:45'], title)
  }
  const unreadable = telegramHtmlPage(
    'Clocks',
    `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="31.02.2023 25:00:00">x</div><div class="text">hi</div></div></div>`,
  )
  await t.rejects(convert({ bytes: encode(unreadable), name: 'messages.html' }), { code: 'convert_unsupported' }, 'a message without a real time is left out')
})

t.test('a lone messages.html is a Telegram chat by its markup; other HTML stays a web page', async (t) => {
  const page = encode(telegramHtmlExport()['messages2.html']!)
  t.equal(converterFor('Downloads/messages.html', undefined, page), 'telegram-html')
  t.equal(converterFor('messages2.html', 'text/html', page), 'telegram-html', 'also when sent as text/html')
  t.equal(converterFor('messages.html', undefined, encode('<html><body><p>Inbox</p></body></html>')), 'html')
  t.equal(converterFor('chat.html', undefined, page), 'html', 'only under the name the app gives it')
  t.equal(converterFor('ChatExport_2024-02-01.zip'), 'telegram-html')
  const r = await convertBounded({ bytes: page, name: 'messages2.html' })
  t.same(
    r.drafts.map((d) => d.slugHint),
    ['chats/telegram/rowing-club-part-2/2024-01', 'chats/telegram/rowing-club-part-2/2024-02'],
    "a later file on its own does not write over the months the chat's first file gave",
  )
  const first = await convertBounded({ bytes: encode(telegramHtmlExport()['messages.html']!), name: 'Downloads/messages.html' })
  t.ok(
    first.drafts.every((d) => d.slugHint.startsWith('chats/telegram/rowing-club/')),
    'the first file names the chat',
  )
})

t.test('a zipped export: HTML pages per chat folder, or the JSON export inside', async (t) => {
  const all = telegramHtmlExport()
  const account = zip({
    'DataExport_2024-02-01/export_results.html': '<html></html>',
    'DataExport_2024-02-01/chats/chat_001/messages.html': all['messages.html']!,
    'DataExport_2024-02-01/chats/chat_001/messages2.html': all['messages2.html']!,
    'DataExport_2024-02-01/chats/chat_002/messages.html': telegramHtmlPage(
      'Rowing club',
      `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="02.02.2024 09:00:00">x</div><div class="from_name">Li</div><div class="text">another club</div></div></div>`,
    ),
  })
  const r = await convertBounded({ bytes: account, name: 'DataExport_2024-02-01.zip' })
  t.same(
    r.drafts.map((d) => d.slugHint),
    ['chats/telegram/rowing-club/2024-01', 'chats/telegram/rowing-club/2024-02', 'chats/telegram/rowing-club-2/2024-02'],
    'two chats of one name stay apart',
  )
  const json = await convertBounded({ bytes: zip({ 'ChatExport_2024-03-02/result.json': telegramChat() }), name: 'ChatExport_2024-03-02.zip' })
  t.same(
    json.drafts.map((d) => d.slugHint),
    ['chats/telegram/rowing-club-1234567890/2024-02', 'chats/telegram/rowing-club-1234567890/2024-03'],
  )
  const both = await convertBounded({
    bytes: zip({ 'ChatExport_2024-03-02/messages.html': all['messages.html']!, 'ChatExport_2024-03-02/result.json': telegramChat() }),
    name: 'ChatExport_2024-03-02.zip',
  })
  t.same(
    both.drafts.map((d) => d.slugHint),
    json.drafts.map((d) => d.slugHint),
    'exported in both formats, the JSON is read',
  )
  await t.rejects(convertBounded({ bytes: zip({ 'photo.jpg': 'x' }), name: 'ChatExport_1.zip' }), { code: 'convert_unsupported' })
})

t.test('hostile and empty pages are refused quickly; the limits hold', async (t) => {
  const empty = encode(telegramHtmlPage('Nobody', ''))
  t.equal(converterFor('messages.html', undefined, empty), 'html', 'a page without messages is no chat')
  await t.rejects(convert({ bytes: empty, name: 'ChatExport_1.zip' }), { code: 'convert_corrupt' })
  await t.rejects(convert({ bytes: new Uint8Array(), name: 'x', files: { 'messages.html': empty } }), { code: 'convert_unsupported' })
  await t.rejects(convert({ bytes: new Uint8Array(), name: 'x', files: { 'messages.html': new Uint8Array() } }), { code: 'convert_unsupported' })
  const started = Date.now()
  const deep = telegramHtmlPage('Deep', `${'<div class="message default">'.repeat(100_000)}x`)
  await t.rejects(convert({ bytes: encode(deep), name: 'messages.html' }), { code: 'convert_corrupt' }, 'nesting no export has')
  const odd = telegramHtmlPage(
    'Odd',
    `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="${'1.'.repeat(50_000)}">x</div><div class="text">lost</div></div></div>` +
      `<div class="message default clearfix" id="message2"><div class="body"><div class="pull_right date details" title="01.01.2024 10:00:00"></div><div class="text">${'<b> '.repeat(400)}${' a\n'.repeat(100_000)}</div></div></div>` +
      `<div class="message service" id="message3"><div class="body details">${'1 '.repeat(50_000)}</div></div>`,
  )
  const oddPages = await convert({ bytes: encode(odd), name: 'messages.html' })
  t.equal(oddPages.drafts.length, 1)
  t.equal(oddPages.counts.messages, 2, 'the message without a readable time left out')
  // A rescanning reader takes minutes on these pages; the bound is wide so a busy machine passes.
  t.ok(Date.now() - started < 30_000, `crafted pages take no long (${Date.now() - started} ms)`)
  await t.rejects(convert(exportInput(), { ...DEFAULT_LIMITS, maxDrafts: 1 }), { code: 'convert_too_many_pages' })
  await t.rejects(convert(exportInput(), { ...DEFAULT_LIMITS, maxBytes: 1000 }), { code: 'convert_too_large' })
})

t.test('export folders: Slack’s and Telegram’s, and what of them is no page of its own', async (t) => {
  const export_ = telegramHtmlExport()
  const heads: Record<string, string> = {
    'ChatExport_2024-02-01/messages.html': export_['messages.html']!,
    'DataExport/chats/chat_001/messages.html': export_['messages.html']!,
    'Both/messages.html': export_['messages.html']!,
    'BothAccount/chats/chat_001/messages.html': export_['messages.html']!,
    'saved/messages.html': '<html><body>my own page</body></html>',
  }
  const paths = [
    'notes/todo.md',
    'ChatExport_2024-02-01/messages.html',
    'ChatExport_2024-02-01/messages2.html',
    'ChatExport_2024-02-01/css/style.css',
    'ChatExport_2024-02-01/files/race-plan.md',
    'ChatExport_2024-02-01/my notes.md',
    'DataExport/export_results.html',
    'DataExport/lists/contacts.html',
    'DataExport/chats/chat_001/messages.html',
    'saved/messages.html',
    'Both/messages.html',
    'Both/css/style.css',
    'Both/result.json',
    'BothAccount/export_results.html',
    'BothAccount/result.json',
    'BothAccount/chats/chat_001/messages.html',
    'Acme/channels.json',
    'Acme/users.json',
    'Acme/general/2024-01-01.json',
  ]
  const found = await exportFolders(paths, async (path) => encode(heads[path] ?? ''))
  t.same(found.folders, [
    { folder: 'Acme', members: ['Acme/channels.json', 'Acme/users.json', 'Acme/general/2024-01-01.json'] },
    { folder: 'ChatExport_2024-02-01', members: ['ChatExport_2024-02-01/messages.html', 'ChatExport_2024-02-01/messages2.html'] },
    { folder: 'DataExport/chats/chat_001', members: ['DataExport/chats/chat_001/messages.html'] },
  ])
  t.same(
    paths.filter((p) => !found.owns(p)),
    ['notes/todo.md', 'ChatExport_2024-02-01/my notes.md', 'saved/messages.html', 'Both/result.json', 'BothAccount/result.json'],
    'a note put beside an export, a page named like one without its markup, and the JSON of an export in both formats stay documents',
  )
})
