// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks, getLinks } from '../../src/links/index.js'
import { findPage, importPage, listPages, serializePage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { makeEncryptedPdf, makeImageOnlyPdf, makePdf } from './pdf-fixtures.js'
import { notebookV4 } from './notebook-fixtures.js'
import { enexExport } from './enex-fixtures.js'
import { slackExport, slackExportFiles, telegramChat, telegramHtmlExport, telegramHtmlPage, whatsappAndroid } from './messenger-fixtures.js'
import { search } from '../../src/search/index.js'
import { context, slugs } from '../search/helpers.js'

const claudeExport = JSON.stringify([
  {
    uuid: 'c-1',
    name: 'Trip planning',
    created_at: '2024-05-01T10:00:00Z',
    chat_messages: [
      { sender: 'human', text: 'Where to go in May?' },
      { sender: 'assistant', text: 'Lisbon.' },
    ],
  },
])

async function folderWithDocuments(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'brain-docs-'))
  await mkdir(join(root, 'papers'))
  await mkdir(join(root, 'chats'))
  await writeFile(join(root, 'note.md'), '# A note\n\nplain markdown\n')
  await writeFile(join(root, 'papers', 'Q1 Report.pdf'), await makePdf([{ heading: 'Revenue', lines: ['Revenue grew.'] }, { lines: ['Costs fell.'] }], { title: 'Q1 Report' }))
  await writeFile(join(root, 'papers', 'locked.pdf'), await makeEncryptedPdf())
  const whole = await makePdf([{ lines: ['x'] }])
  await writeFile(join(root, 'papers', 'cut.pdf'), whole.slice(0, 200))
  await writeFile(join(root, 'papers', 'scan.pdf'), await makeImageOnlyPdf())
  await writeFile(join(root, 'chats', 'conversations.json'), claudeExport)
  return root
}

engineTest(t, 'import --strategy auto converts PDFs and chat exports; failures coded; unchanged files are no-ops; changed files update', async (t, { db }) => {
  const root = await folderWithDocuments()
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const options = { sourceId: 'default', embedder: null, strategy: 'auto' as const }
  const first = await importFolder(db, root, options)
  t.equal(first.files, 6)
  t.equal(first.created, 3, 'note, PDF page, conversation page')
  t.same(first.failed.map((f) => [f.path, f.code]).sort(), [
    ['papers/cut.pdf', 'pdf_corrupt'],
    ['papers/locked.pdf', 'pdf_encrypted'],
    ['papers/scan.pdf', 'pdf_no_text'],
  ])
  t.match(first.formats, { pdf: { files: 1, pages: 1 }, claude: { files: 1, pages: 1 }, failed: { failed: 3 } })
  t.equal(first.documentCounts.pdf_pages, 2)

  const pdf = await findPage(db, 'default', 'papers/q1-report')
  t.ok(pdf, 'the PDF page has the slug of its path')
  t.equal(pdf!.title, 'Q1 Report')
  t.equal(pdf!.frontmatter.source_format, 'pdf')
  t.match(pdf!.frontmatter.source_hash, /^[0-9a-f]{64}$/)
  t.equal(pdf!.sourceUri, 'papers/Q1 Report.pdf')
  t.match(pdf!.compiledTruth, /## Page 2\n\nCosts fell\./)
  const chat = (await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE frontmatter ->> 'source_format' = 'claude'`)).rows
  t.same(
    chat.map((r) => r.slug),
    ['chats/claude/trip-planning-c-1'],
  )

  const again = await importFolder(db, root, options)
  t.equal(again.created + again.updated, 0, 'nothing unchanged is written again')
  t.equal(again.skipped, 3)

  await writeFile(join(root, 'papers', 'Q1 Report.pdf'), await makePdf([{ lines: ['Revenue grew a lot.'] }], { title: 'Q1 Report' }))
  const changed = await importFolder(db, root, options)
  t.equal(changed.updated, 1)
  t.equal(changed.created, 0)
  t.match((await findPage(db, 'default', 'papers/q1-report'))!.compiledTruth, /Revenue grew a lot\./)

  const twoChats = JSON.stringify([
    JSON.parse(claudeExport)[0],
    {
      uuid: 'c-2',
      name: 'Garden plan',
      created_at: '2024-05-02T10:00:00Z',
      chat_messages: [
        { sender: 'human', text: 'Tomatoes or beans?' },
        { sender: 'assistant', text: 'Beans.' },
      ],
    },
  ])
  await writeFile(join(root, 'chats', 'conversations.json'), twoChats)
  const grown = await importFolder(db, root, options)
  t.equal(grown.created, 1, 'a conversation added to the export becomes a page')
  await writeFile(join(root, 'chats', 'conversations.json'), JSON.stringify([JSON.parse(twoChats)[1]]))
  const shrunk = await importFolder(db, root, options)
  t.same(shrunk.removedSlugs, ['chats/claude/trip-planning-c-1'], 'a conversation taken out of the export leaves the brain')
  t.match(shrunk.formats, { claude: { files: 1, pages: 1, removed: 1 } })
  t.equal(await findPage(db, 'default', 'chats/claude/trip-planning-c-1'), null)
  t.ok(await findPage(db, 'default', 'chats/claude/garden-plan-c-2'), 'the one still in it stays')
  const { rows: trashed } = await db.query<{ slug: string }>('SELECT slug FROM page_trash')
  t.same(
    trashed.map((r) => r.slug),
    ['chats/claude/trip-planning-c-1'],
    'into the trash, where it can be restored',
  )
  t.ok(await findPage(db, 'default', 'papers/q1-report'), 'pages of other files are untouched')

  const markdownOnly = await importFolder(db, root, { ...options, strategy: 'markdown' })
  t.equal(markdownOnly.files, 1, 'documents come with --strategy auto only')
})

engineTest(t, 'in a folder, pages that only redirect or ask not to be indexed are counted, not imported and not failures; a capture of a redirect says where it points', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-redirects-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const redirect = (to: string): string =>
    `<!DOCTYPE html><html><head><title>Redirecting...</title><meta http-equiv="refresh" content="0; URL=${to}"></head><body><p>Redirecting to <a href="${to}">${to}</a>.</p><script>${'const fragmentMap = {};'.repeat(60)}</script></body></html>`
  await writeFile(join(root, 'old-name.html'), redirect('guide/new-name.html'))
  await mkdir(join(root, 'guide'))
  await writeFile(join(root, 'guide', 'new-name.html'), `<html><head><title>New name</title></head><body><main><h1>New name</h1><p>${'The guide itself. '.repeat(20)}</p></main></body></html>`)
  // A page that refreshes but has content of its own is a page.
  await writeFile(
    join(root, 'live.html'),
    `<html><head><title>Live</title><meta http-equiv="refresh" content="300"></head><body><p>${'Scores update every five minutes. '.repeat(20)}</p></body></html>`,
  )
  // A print view of the whole book asks not to be indexed: in a folder it is no page of its own.
  const printView = `<html><head><title>The book</title><meta name="robots" content="noindex"></head><body><main><h1>All chapters</h1><p>${'The guide itself. '.repeat(20)}</p></main></body></html>`
  await writeFile(join(root, 'print.html'), printView)
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.created, 2)
  t.equal(result.documentCounts.redirects, 1)
  t.equal(result.documentCounts.noindex, 1)
  t.equal(await findPage(db, 'default', 'print'), null)
  t.equal(await findPage(db, 'default', 'old-name'), null)
  t.ok(await findPage(db, 'default', 'guide/new-name'))
  t.ok(await findPage(db, 'default', 'live'))
  const { captureDocument } = await import('../../src/intake/capture/index.js')
  await t.rejects(captureDocument(db, { bytes: new TextEncoder().encode(redirect('https://example.org/moved')), name: 'moved.html', embedder: null, writtenVia: 'capture' }), {
    code: 'convert_redirect',
    message: /only redirects to https:\/\/example\.org\/moved/,
  })
  const captured = await captureDocument(db, { bytes: new TextEncoder().encode(printView), name: 'print-view.html', embedder: null, writtenVia: 'capture' })
  t.equal(captured.status, 'created', 'captured on its own, a page that asks not to be indexed is kept')
  // A page imported before that has since become a redirect leaves the brain, to the trash.
  await writeFile(join(root, 'guide', 'new-name.html'), redirect('../elsewhere.html'))
  const again = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(again.documentCounts.redirects, 2)
  t.equal(await findPage(db, 'default', 'guide/new-name'), null)
  const trashed = await db.query<{ slug: string }>(`SELECT slug FROM page_trash`)
  t.same(
    trashed.rows.map((r) => r.slug),
    ['guide/new-name'],
  )
})

engineTest(t, 'a Jupyter notebook imports as one page at its path: code searchable as code, links both ways', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-notebooks-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'analysis'))
  await mkdir(join(root, 'notes'))
  await writeFile(join(root, 'analysis', 'Churn Model.ipynb'), notebookV4())
  await writeFile(join(root, 'notes', 'churn.md'), '# Churn notes\n\nThe model is in [the notebook](../analysis/Churn%20Model.ipynb).\n')
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(result.created, 2)
  t.match(result.formats, { ipynb: { files: 1, pages: 1 } })
  const page = await findPage(db, 'default', 'analysis/churn-model')
  t.ok(page, 'the slug of its path, without the extension')
  t.same([page!.title, page!.type, page!.frontmatter.language], ['Customer churn model', 'notebook', 'python'])
  const { rows: chunks } = await db.query<{ language: string | null; chunk_text: string }>(
    `SELECT c.language, c.chunk_text FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = 'analysis/churn-model' ORDER BY c.chunk_index`,
  )
  t.ok(
    chunks.some((c) => c.language === 'python' && c.chunk_text.includes('def fit(X, y)')),
    'a code cell is a python chunk',
  )
  t.same(
    (await getBacklinks(db, 'analysis/churn-model')).map((l) => l.fromSlug),
    ['notes/churn'],
    'a link to the .ipynb file finds the page',
  )
  t.same(
    (await getLinks(db, 'analysis/churn-model')).map((l) => l.toSlug),
    ['notes/churn'],
    "the notebook's own links resolve",
  )
  const again = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(again.skipped, 2, 'an unchanged notebook is not converted again')
})

engineTest(t, 'an Evernote export imports one page per note with its tags; a note taken out of the export goes to the trash', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-enex-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const file = join(root, 'Travel Notebook.enex')
  await writeFile(file, enexExport())
  const options = { sourceId: 'default', embedder: null, strategy: 'auto' as const }
  const first = await importFolder(db, root, options)
  t.equal(first.created, 5)
  t.match(first.formats, { enex: { files: 1, pages: 5 } })
  const trip = await findPage(db, 'default', 'evernote/travel-notebook/trip-packing-list-2024-01-15')
  t.same([trip!.title, trip!.tags, trip!.frontmatter.source_format], ['Trip & packing list', ['lists', 'travel'], 'enex'])
  t.match(trip!.compiledTruth, /- \[x\] Book the hotel/)
  const again = await importFolder(db, root, options)
  t.same([again.skipped, again.created, again.updated], [1, 0, 0], 'an unchanged export is not converted again')
  await writeFile(file, enexExport().replace('Second meeting,', 'Second meeting, moved,'))
  const edited = await importFolder(db, root, options)
  t.same([edited.created, edited.updated], [0, 1], 'only the note that changed is written again')
  t.match((await findPage(db, 'default', 'evernote/travel-notebook/meeting-2024-01-11'))!.compiledTruth, /Second meeting, moved,/)
  const reread = await importFolder(db, root, options)
  t.same([reread.created, reread.updated, reread.formats.unchanged?.unchanged], [0, 0, 1], 'and the export is then unchanged')
  // An edit of a page the last version left as it was (it carries an older hash) stays until the file changes.
  const kept = (await findPage(db, 'default', 'evernote/travel-notebook/trip-packing-list-2024-01-15'))!
  await importPage(db, { slug: kept.slug, kind: 'markdown', content: `${serializePage(kept)}\nMy own reminder.\n`, writtenVia: 'put_page' })
  const afterEdit = await importFolder(db, root, options)
  t.same([afterEdit.created, afterEdit.updated], [0, 0])
  t.match((await findPage(db, 'default', kept.slug))!.compiledTruth, /My own reminder\./, 'the edit is kept')
  await writeFile(file, enexExport().replace(/<note>\s*<title>Meeting<\/title>[\s\S]*?<\/note>\n/, ''))
  const shrunk = await importFolder(db, root, options)
  t.same(shrunk.removedSlugs, ['evernote/travel-notebook/meeting-2024-01-10'])
  t.equal(shrunk.created, 0, 'the notes still in it keep their slugs')
  t.ok(await findPage(db, 'default', 'evernote/travel-notebook/meeting-2024-01-11'))
})

engineTest(t, 'messenger exports import a page per chat and month beside the notes; a month gone from a new export goes to the trash', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-chats-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'ChatExport_2024-03-02'))
  await mkdir(join(root, 'data'))
  const whatsapp = join(root, 'WhatsApp Chat with Ana Lima.txt')
  await writeFile(whatsapp, whatsappAndroid())
  await writeFile(join(root, 'ChatExport_2024-03-02', 'result.json'), telegramChat())
  await writeFile(join(root, 'Acme Slack export Jan 1 2024 - Feb 29 2024.zip'), slackExport())
  await writeFile(join(root, 'shopping.txt'), 'oat milk\nlighthouse postcard\n')
  await writeFile(join(root, 'data', 'result.json'), '{"passed": 3}\n')
  // The same workspace's export unpacked, as people often keep it.
  for (const [path, text] of Object.entries(slackExportFiles())) {
    await mkdir(join(root, 'Beta Slack export', path, '..'), { recursive: true })
    await writeFile(join(root, 'Beta Slack export', path), text)
  }
  const options = { sourceId: 'default', embedder: null, strategy: 'auto' as const }
  const first = await importFolder(db, root, options)
  t.same(first.failed, [])
  t.match(first.formats, { whatsapp: { files: 1, pages: 2 }, telegram: { files: 1, pages: 2 }, slack: { files: 2, pages: 6 } })
  t.ok(await findPage(db, 'default', 'chats/slack/beta/general/2024-02'), 'an unpacked export is read as the zip is')
  t.equal(first.created, 12, 'and none of its files is a page of its own: two notes and ten chat months')
  t.ok(await findPage(db, 'default', 'shopping.txt'), 'a text file that is no export stays a note')
  t.ok(await findPage(db, 'default', 'data/result.json'), 'a result.json that is no export stays a file')
  const december = await findPage(db, 'default', 'chats/whatsapp/ana-lima/2023-12')
  t.same([december!.title, december!.frontmatter.source_format, december!.frontmatter.messages], ['Ana Lima — 2023-12', 'whatsapp', 4])
  t.same(slugs(await search(context(db, undefined), 'lighthouse map')).slice(0, 1), ['chats/whatsapp/ana-lima/2023-12'], 'a message is found by its words')
  t.ok(await findPage(db, 'default', 'chats/slack/acme/general/2024-02'))
  t.ok(await findPage(db, 'default', 'chats/telegram/rowing-club-1234567890/2024-03'))
  const again = await importFolder(db, root, options)
  t.same([again.created, again.updated], [0, 0], 'unchanged exports are not converted again')
  const longer = `${whatsappAndroid()}\n02/02/2024, 10:00 - Bruno: February already`
  await writeFile(whatsapp, longer)
  const added = await importFolder(db, root, options)
  t.same([added.created, added.updated], [1, 0], 'a longer export adds its new month and rewrites none of the others')
  const unchanged = await importFolder(db, root, options)
  t.same([unchanged.created, unchanged.updated, unchanged.formats.unchanged?.unchanged], [0, 0, 4], 'and is then unchanged: no export converted again')
  await writeFile(whatsapp, whatsappAndroid().split('\n').slice(0, 7).join('\n'))
  const shorter = await importFolder(db, root, options)
  t.same(shorter.removedSlugs, ['chats/whatsapp/ana-lima/2024-01', 'chats/whatsapp/ana-lima/2024-02'], 'months no longer in the export go to the trash')
  await writeFile(whatsapp, longer)
  const back = await importFolder(db, root, options)
  t.same([back.created, back.updated], [2, 0], 'the longer export again brings its months back')
})

engineTest(t, 'a Telegram HTML export folder is one chat: its month pages, and none of its files a page of its own', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-telegram-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'note.md'), '# A note\n\nplain markdown\n')
  const chat = join(root, 'ChatExport_2024-02-01')
  for (const [path, text] of Object.entries(telegramHtmlExport())) {
    await mkdir(join(chat, path, '..'), { recursive: true })
    await writeFile(join(chat, path), text)
  }
  await mkdir(join(chat, 'photos'))
  await writeFile(join(chat, 'photos', 'photo_1@15-01-2024_11-00-00.jpg'), Buffer.from([0xff, 0xd8, 0xff]))
  // A whole account's export: a chat per folder, beside lists that are no chat.
  const account = join(root, 'DataExport_2024-02-01')
  await mkdir(join(account, 'chats', 'chat_001'), { recursive: true })
  await mkdir(join(account, 'lists'))
  await writeFile(join(account, 'export_results.html'), '<html><body><div class="page_header">Exported Data</div></body></html>')
  await writeFile(join(account, 'lists', 'contacts.html'), '<html><body><h1>Contacts</h1><p>Tom +49 000 000</p></body></html>')
  const tom = `<div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="03.02.2024 09:00:00 UTC+01:00">09:00</div><div class="from_name">Tom</div><div class="text">oars are fixed</div></div></div>`
  await writeFile(join(account, 'chats', 'chat_001', 'messages.html'), telegramHtmlPage('Tom', tom))
  const options = { sourceId: 'default', embedder: null, strategy: 'auto' as const }
  const first = await importFolder(db, root, options)
  t.same(first.failed, [])
  t.same(first.formats, { telegram: { files: 2, pages: 3, unchanged: 0, failed: 0, removed: 0 } })
  t.same(
    (await listPages(db, { limit: 50 })).map((p) => p.slug).sort(),
    ['chats/telegram/rowing-club/2024-01', 'chats/telegram/rowing-club/2024-02', 'chats/telegram/tom/2024-02', 'note'],
    'no page of the styles, scripts, files sent, pages of messages or account lists',
  )
  const january = await findPage(db, 'default', 'chats/telegram/rowing-club/2024-01')
  t.same([january!.title, january!.frontmatter.source_format, january!.frontmatter.messages], ['Rowing club — 2024-01', 'telegram', 8])
  t.match(january!.compiledTruth, /\*\*Ines\*\*, 23:59: \[sticker\]/, 'the month runs on into the export’s second file')
  const again = await importFolder(db, root, options)
  t.same([again.created, again.updated], [0, 0], 'an unchanged export is not read again')
  const second = telegramHtmlExport()['messages2.html']!.replace('Tom pinned a message', 'Tom pinned the race plan')
  await writeFile(join(chat, 'messages2.html'), second)
  const changed = await importFolder(db, root, options)
  t.same([changed.created, changed.updated], [0, 1], 'a changed second file rewrites the month it holds')
})
