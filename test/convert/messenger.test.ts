// test-runner: shares a process
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { discordChannel, slackExport, telegramAccount, telegramChat, whatsappAndroid, whatsappIphone, whatsappZip } from './messenger-fixtures.js'

const bytes = (text: string) => new TextEncoder().encode(text)

t.test('messenger exports are known by the names the apps give them', async (t) => {
  t.equal(converterFor('phone/WhatsApp Chat with Ana Lima.txt'), 'whatsapp')
  t.equal(converterFor('WhatsApp-Chat mit Bruno.txt'), 'whatsapp', 'in the app’s other languages')
  t.equal(converterFor('WhatsApp Chat - Sam/_chat.txt'), 'whatsapp')
  t.equal(converterFor('WhatsApp Chat - Sam.zip'), 'whatsapp')
  t.equal(converterFor('Acme Slack export Jan 1 2024 - Feb 29 2024.zip'), 'slack')
  t.equal(converterFor('Synth Makers - Builds - modular [900000000000000002].json'), 'discord')
  t.equal(converterFor('backup/ChatExport_2024-03-02/result.json'), 'telegram')
  t.equal(converterFor('result.json', undefined, bytes(telegramChat())), 'telegram', 'a bare result.json by its first bytes')
  t.equal(converterFor('result.json', undefined, bytes('{"passed": 3}')), null, 'any other result.json stays code')
  t.equal(converterFor('tests/result.json'), null)
  t.equal(converterFor('notes/shopping.txt'), null, 'other text files stay notes')
  t.equal(converterFor('photos.zip'), null)
})

t.test('an Android WhatsApp export: a page per month, a section per day, lines continuing a message', async (t) => {
  const r = await convertBounded({ bytes: bytes(whatsappAndroid()), name: 'phone/WhatsApp Chat with Ana Lima.txt' })
  t.equal(r.format, 'whatsapp')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['chats/whatsapp/ana-lima/2023-12', 'Ana Lima — 2023-12'],
      ['chats/whatsapp/ana-lima/2024-01', 'Ana Lima — 2024-01'],
    ],
  )
  t.same(r.counts, { conversations: 1, secrets_scrubbed: 0, messages: 6 })
  const december = r.drafts[0]!
  t.same(december.frontmatter, {
    type: 'conversation',
    source_format: 'whatsapp',
    chat: 'Ana Lima',
    month: '2023-12',
    messages: 4,
    participants: ['Ana Lima', 'Bruno'],
    created: '2023-12-28 09:01',
  })
  t.match(december.body, /^# Ana Lima — 2023-12\n\n## 2023-12-28\n\n\*09:01\* · Messages and calls are end-to-end encrypted\./)
  t.match(december.body, /\*\*Bruno\*\*, 09:05: Yes! Bring the map\.\nThe old one, with the lighthouse\.\n\nAnd snacks\./, 'the lines after a message belong to it')
  t.match(december.body, /## 2023-12-31\n\n\*\*Ana Lima\*\*, 23:59: <Media omitted>/)
  t.match(r.drafts[1]!.body, /\*\*Bruno\*\*, 00:00: Happy new year: 2024 is here/, 'a colon later in the text is text')
  t.match(r.drafts[1]!.body, /## 2024-01-13\n\n\*18:30\* · Ana Lima added Carla/, 'what the app says has no speaker')
})

t.test('an iPhone WhatsApp export in its zip: US dates, a 12-hour clock, secrets scrubbed', async (t) => {
  const r = await convertBounded({ bytes: whatsappZip(), name: 'WhatsApp Chat - Sam.zip' })
  t.equal(r.format, 'whatsapp')
  t.same(
    r.drafts.map((d) => d.slugHint),
    ['chats/whatsapp/sam/2024-01'],
  )
  const body = r.drafts[0]!.body
  t.match(body, /## 2024-01-05\n\n\*\*Sam\*\*, 21:15: Messages and calls/, 'month first on a US phone, 9:15 PM is 21:15')
  t.match(body, /## 2024-01-12\n\n\*\*Pat\*\*, 00:01: Sure, my key is \[redacted:/, '12:01 AM is just after midnight')
  t.match(body, /\*\*Pat\*\*, 12:02: <attached: 00000012-PHOTO/)
  t.notMatch(body, /\u200e|\u202f|sk-ant-api03/)
  t.equal(r.counts.secrets_scrubbed, 1)
  const plain = await convertBounded({ bytes: bytes(whatsappIphone()), name: 'WhatsApp Chat - Sam/_chat.txt' })
  t.same(
    plain.drafts.map((d) => d.slugHint),
    ['chats/whatsapp/sam/2024-01'],
    'the folder names the chat of a bare _chat.txt',
  )
})

t.test('a text named like a WhatsApp export that holds no messages is kept as one page of text', async (t) => {
  const r = await convertBounded({ bytes: bytes('# Whatsapp ideas\n\nStickers for the team.\n'), name: 'whatsapp ideas.txt' })
  t.equal(r.format, 'text')
  t.equal(r.drafts.length, 1)
  t.match(r.drafts[0]!.body, /Stickers for the team/)
})

t.test('a Telegram chat export: formatted text, media named, service messages', async (t) => {
  const r = await convertBounded({ bytes: bytes(telegramChat()), name: 'ChatExport_2024-03-02/result.json' })
  t.equal(r.format, 'telegram')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['chats/telegram/rowing-club-1234567890/2024-02', 'Rowing club — 2024-02'],
      ['chats/telegram/rowing-club-1234567890/2024-03', 'Rowing club — 2024-03'],
    ],
  )
  t.match(r.drafts[0]!.frontmatter, { chat_type: 'private_supergroup', chat_id: '1234567890', participants: ['Ines', 'Tom'] })
  const february = r.drafts[0]!.body
  t.match(february, /\*08:00\* · Ines create group Ines, Tom/)
  t.match(february, /\*\*Tom\*\*, 08:06: See \[the schedule\]\(https:\/\/example\.org\/rowing\) and \*\*be early\*\*/)
  const march = r.drafts[1]!.body
  t.match(march, /\*\*Tom\*\*, 10:00: \[photo\] Regatta photo/)
  t.match(march, /\*\*Ines\*\*, 10:01: \[sticker 👍\]/)
  t.match(march, /\*\*Deleted Account\*\*, 10:02: from a deleted account/)
})

t.test('a whole Telegram account: every chat, Saved Messages named', async (t) => {
  const r = await convertBounded({ bytes: bytes(telegramAccount()), name: 'DataExport_2024-04-06/result.json' })
  t.same(
    r.drafts.map((d) => d.slugHint),
    ['chats/telegram/tom-42/2024-04', 'chats/telegram/saved-messages-7/2024-04'],
  )
  await t.rejects(convertBounded({ bytes: bytes('{"name": "x", "type": "personal_chat"}'), name: 'ChatExport_1/result.json' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes('{"name": "x", "type": "personal_chat",'), name: 'ChatExport_1/result.json' }), { code: 'convert_corrupt' })
})

t.test('a Discord channel exported by DiscordChatExporter', async (t) => {
  const r = await convertBounded({ bytes: bytes(discordChannel()), name: 'Synth Makers - Builds - modular [900000000000000002].json' })
  t.equal(r.format, 'discord')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [['chats/discord/synth-makers/modular/2024-05', 'Synth Makers / modular — 2024-05']],
  )
  t.match(r.drafts[0]!.frontmatter, { server: 'Synth Makers', category: 'Builds', channel_id: '900000000000000002', participants: ['Vera', 'otto'] })
  const body = r.drafts[0]!.body
  t.match(body, /\*18:00\* · Vera guild member join/, 'the time as the export wrote it')
  t.match(body, /\*\*Vera\*\*, 18:01: My first \*\*oscillator\*\* works\n\[attachment: scope\.png\]/)
  t.match(body, /\*\*otto\*\*, 18:02: Nice! Try a wavefolder next\./)
  await t.rejects(convertBounded({ bytes: bytes('{"messages": []}'), name: 'x [900000000000000002].json' }), { code: 'convert_unsupported' })
})

t.test('a Slack workspace export: channels and direct messages by month, Slack markup as markdown', async (t) => {
  const r = await convertBounded({ bytes: slackExport(), name: 'Acme Slack export Jan 1 2024 - Feb 29 2024.zip' })
  t.equal(r.format, 'slack')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['chats/slack/acme/d1/2024-01', 'Direct messages: mara, Li Wei — 2024-01'],
      ['chats/slack/acme/general/2024-01', 'general — 2024-01'],
      ['chats/slack/acme/general/2024-02', 'general — 2024-02'],
    ],
  )
  t.match(r.drafts[1]!.frontmatter, { workspace: 'Acme', participants: ['mara', 'Li Wei'] })
  const january = r.drafts[1]!.body
  t.match(january, /\*10:00\* · @Li Wei has joined the channel/)
  t.match(january, /\*\*mara\*\*, 11:00: Release notes are at \[the wiki\]\(https:\/\/example\.org\/notes\) & #general ping @Li Wei/)
  t.match(january, /\*\*Li Wei\*\*, 11:05, in a thread: On it <3/)
  t.match(r.drafts[2]!.body, /\*\*Li Wei\*\*, 10:00: Deploy done\n\[file: deploy\.log\]/)
  await t.rejects(convertBounded({ bytes: whatsappZip(), name: 'Team Slack export.zip' }), { code: 'convert_unsupported' })
})

t.test('a message that opens with a code block starts it on a line of its own', async (t) => {
  const chat = {
    name: 'Dev',
    type: 'personal_chat',
    id: 5,
    messages: [{ id: 1, type: 'message', date: '2024-06-01T10:00:00', from: 'Tom', text: [{ type: 'pre', text: 'x = 1', language: 'python' }] }],
  }
  const r = await convertBounded({ bytes: bytes(JSON.stringify(chat)), name: 'ChatExport_2024-06-01/result.json' })
  t.match(r.drafts[0]!.body, /\*\*Tom\*\*, 10:00:\n```python\nx = 1\n```\n/)
})
