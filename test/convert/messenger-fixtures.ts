/** Messenger exports as the apps write them, for the converter and import tests. */
import { zip } from './docx-fixtures.js'

const LRM = '\u200e'
const NNBSP = '\u202f'

/** Android, day first, 24-hour clock, two months. */
export function whatsappAndroid(): string {
  return [
    '28/12/2023, 09:01 - Messages and calls are end-to-end encrypted. No one outside of this chat can read them.',
    '28/12/2023, 09:02 - Ana Lima: Are we still on for the *harbour walk*?',
    '28/12/2023, 09:05 - Bruno: Yes! Bring the map.',
    'The old one, with the lighthouse.',
    '',
    'And snacks.',
    '31/12/2023, 23:59 - Ana Lima: <Media omitted>',
    '01/01/2024, 00:00 - Bruno: Happy new year: 2024 is here',
    '13/01/2024, 18:30 - Ana Lima added Carla',
  ].join('\n')
}

/** iPhone, US phone: month first, 12-hour clock with a narrow space, direction marks. */
export function whatsappIphone(): string {
  return [
    `[1/5/24, 9:15:03${NNBSP}PM] Sam: ${LRM}Messages and calls are end-to-end encrypted.`,
    `[1/5/24, 9:16:10${NNBSP}PM] Sam: Dinner at 8?`,
    `[1/12/24, 12:01:00${NNBSP}AM] Pat: Sure, my key is sk-ant-api03-${'A'.repeat(40)}`,
    `${LRM}[1/12/24, 12:02:00${NNBSP}PM] Pat: ${LRM}<attached: 00000012-PHOTO-2024-01-12-12-02-00.jpg>`,
  ].join('\r\n')
}

export function whatsappZip(): Buffer {
  return zip({ '_chat.txt': whatsappIphone(), '00000012-PHOTO-2024-01-12-12-02-00.jpg': Buffer.from([0xff, 0xd8, 0xff]) })
}

/** A Telegram Desktop chat export (`ChatExport_…/result.json`). */
export function telegramChat(): string {
  return JSON.stringify(
    {
      name: 'Rowing club',
      type: 'private_supergroup',
      id: 1234567890,
      messages: [
        { id: 1, type: 'service', date: '2024-02-01T08:00:00', actor: 'Ines', action: 'create_group', title: 'Rowing club', members: ['Ines', 'Tom'], text: '' },
        { id: 2, type: 'message', date: '2024-02-01T08:05:12', from: 'Ines', from_id: 'user1', text: 'Training moved to **six**' },
        {
          id: 3,
          type: 'message',
          date: '2024-02-01T08:06:00',
          from: 'Tom',
          text: ['See ', { type: 'text_link', text: 'the schedule', href: 'https://example.org/rowing' }, ' and ', { type: 'bold', text: 'be early' }],
        },
        { id: 4, type: 'message', date: '2024-03-02T10:00:00', from: 'Tom', photo: 'photos/photo_1.jpg', text: 'Regatta photo' },
        { id: 5, type: 'message', date: '2024-03-02T10:01:00', from: 'Ines', media_type: 'sticker', sticker_emoji: '👍', text: '' },
        { id: 6, type: 'message', date: '2024-03-02T10:02:00', from: null, text: 'from a deleted account' },
      ],
    },
    null,
    1,
  )
}

/** A whole-account Telegram export: `chats.list`. */
export function telegramAccount(): string {
  return JSON.stringify({
    about: 'Here is the data you requested.',
    personal_information: { first_name: 'Ines' },
    chats: {
      about: 'This page lists all chats from this export.',
      list: [
        { name: 'Tom', type: 'personal_chat', id: 42, messages: [{ id: 1, type: 'message', date: '2024-04-04T12:00:00', from: 'Tom', text: 'lunch?' }] },
        { type: 'saved_messages', id: 7, messages: [{ id: 1, type: 'message', date: '2024-04-05T07:00:00', from: 'Ines', text: 'buy oars' }] },
      ],
    },
  })
}

/** DiscordChatExporter's JSON of one channel. */
export function discordChannel(): string {
  return JSON.stringify({
    guild: { id: '800000000000000001', name: 'Synth Makers' },
    channel: { id: '900000000000000002', type: 'GuildTextChat', category: 'Builds', name: 'modular' },
    messages: [
      { id: '1', type: 'GuildMemberJoin', timestamp: '2024-05-01T18:00:00.000+02:00', content: '', author: { id: 'a', name: 'vera', nickname: 'Vera' } },
      {
        id: '2',
        type: 'Default',
        timestamp: '2024-05-01T18:01:30.123+02:00',
        content: 'My first **oscillator** works',
        author: { id: 'a', name: 'vera', nickname: 'Vera' },
        attachments: [{ id: 'x', fileName: 'scope.png', url: 'https://cdn.example.org/scope.png' }],
      },
      { id: '3', type: 'Reply', timestamp: '2024-05-01T18:02:00.000+02:00', content: 'Nice! Try a wavefolder next.', author: { id: 'b', name: 'otto' } },
    ],
    messageCount: 3,
  })
}

/** The files of a Slack workspace export, by their path inside it. */
export function slackExportFiles(): Record<string, string> {
  const users = [
    { id: 'U1', name: 'mara', real_name: 'Mara Quinn', profile: { display_name: 'mara', real_name: 'Mara Quinn' } },
    { id: 'U2', name: 'li', profile: { display_name: '', real_name: 'Li Wei' } },
  ]
  const channels = [{ id: 'C1', name: 'general', created: 1704067200, members: ['U1', 'U2'] }]
  const dms = [{ id: 'D1', created: 1704067200, members: ['U1', 'U2'] }]
  const general = [
    { type: 'message', subtype: 'channel_join', user: 'U2', text: '<@U2> has joined the channel', ts: '1704103200.000100' },
    { type: 'message', user: 'U1', text: 'Release notes are at <https://example.org/notes|the wiki> &amp; <#C1|general> ping <@U2>', ts: '1704106800.000200', thread_ts: '1704106800.000200' },
    { type: 'message', user: 'U2', text: 'On it &lt;3', ts: '1704107100.000300', thread_ts: '1704106800.000200', parent_user_id: 'U1' },
  ]
  const february = [{ type: 'message', user: 'U2', text: 'Deploy done', ts: '1706781600.000100', files: [{ name: 'deploy.log' }] }]
  const dm = [{ type: 'message', user: 'U1', text: 'lunch?', ts: '1704193200.000100' }]
  return {
    'users.json': JSON.stringify(users),
    'channels.json': JSON.stringify(channels),
    'dms.json': JSON.stringify(dms),
    'general/2024-01-01.json': JSON.stringify(general),
    'general/2024-02-01.json': JSON.stringify(february),
    'D1/2024-01-02.json': JSON.stringify(dm),
  }
}

/** A Slack workspace export as Slack zips it. */
export function slackExport(): Buffer {
  return zip(slackExportFiles())
}

/** A message of Telegram Desktop's HTML export, indented and broken over lines as the app writes it. */
function telegramHtmlMessage(id: number, title: string, inner: string, options: { from?: string; joined?: boolean } = {}): string {
  const clock = /\d\d:\d\d/.exec(title)![0]
  const from = options.from === undefined ? '' : `\n       <div class="from_name">\n${options.from}\n       </div>\n`
  const userpic =
    options.joined === true
      ? ''
      : '\n      <div class="pull_left userpic_wrap">\n       <div class="userpic userpic1" style="width: 42px; height: 42px">\n        <div class="initials" style="line-height: 42px">\nX\n        </div>\n       </div>\n      </div>\n'
  return `
     <div class="message default clearfix${options.joined === true ? ' joined' : ''}" id="message${id}">
${userpic}
      <div class="body">

       <div class="pull_right date details" title="${title}">
${clock}
       </div>
${from}
${inner}
      </div>
     </div>
`
}

function telegramHtmlService(id: number, text: string): string {
  return `
     <div class="message service" id="message${id}">
      <div class="body details">
${text}
      </div>
     </div>
`
}

/** One page of a Telegram Desktop HTML export, its messages inside the app's header and scripts. */
export function telegramHtmlPage(chat: string, messages: string, next?: string): string {
  const pagination = next === undefined ? '' : `\n     <a class="pagination block_link" href="${next}">\nNext messages\n     </a>\n`
  return `<!DOCTYPE html>
<html>

 <head>

  <meta charset="utf-8"/>
<title>Exported Data</title>

  <meta content="width=device-width, initial-scale=1.0" name="viewport"/>

  <link href="css/style.css" rel="stylesheet"/>

  <script src="js/script.js" type="text/javascript">

  </script>

 </head>

 <body onload="CheckLocation();">

  <div class="page_wrap">

   <div class="page_header">

    <div class="content">

     <div class="text bold">
${chat}
     </div>

    </div>

   </div>

   <div class="page_body chat_page">

    <div class="history">
${messages}${pagination}
    </div>

   </div>

  </div>

 </body>

</html>
`
}

/**
 * A Telegram Desktop chat exported as HTML: two pages of messages (January runs over from the
 * first into the second), with the styles, scripts and media the app writes beside them.
 */
export function telegramHtmlExport(): Record<string, string> {
  const first = [
    telegramHtmlService(-1, '15 January 2024'),
    telegramHtmlService(1, 'Ines created group «Rowing club»'),
    telegramHtmlMessage(2, '15.01.2024 10:30:12 UTC+01:00', '       <div class="text">\nTraining moved to <strong>six</strong>\n       </div>', { from: 'Ines' }),
    telegramHtmlMessage(
      3,
      '15.01.2024 10:31:00 UTC+01:00',
      '       <div class="text">\nSee <a href="https://example.org/rowing">the schedule</a><br>and <em>be early</em>, gate code <code>4711</code>\n       </div>',
      { joined: true },
    ),
    telegramHtmlMessage(
      4,
      '15.01.2024 11:00:00 UTC+01:00',
      `       <div class="media_wrap clearfix">
        <a class="photo_wrap clearfix pull_left" href="photos/photo_1@15-01-2024_11-00-00.jpg">
         <img class="photo" src="photos/photo_1@15-01-2024_11-00-00_thumb.jpg" style="width: 260px; height: 195px"/>
        </a>
       </div>
       <div class="text">
Regatta photo
       </div>`,
      { from: 'Tom' },
    ),
    telegramHtmlMessage(
      5,
      '15.01.2024 11:05:00 UTC+01:00',
      `       <div class="forwarded body">
        <div class="from_name">
Coach Mara<span class="date details" title="14.01.2024 20:00:00 UTC+01:00"> 14.01.2024 20:00:00</span>
        </div>
        <div class="text">
Row at <strong>dawn</strong>
        </div>
       </div>`,
      { from: 'Tom' },
    ),
    telegramHtmlMessage(
      6,
      '15.01.2024 12:00:00 UTC+01:00',
      `       <div class="reply_to details">
In reply to <a href="#go_to_message4" onclick="return GoToMessage(4)">this message</a>
       </div>
       <div class="media_wrap clearfix">
        <a class="media clearfix pull_left block_link media_file" href="files/race-plan.pdf">
         <div class="fill pull_left">
         </div>
         <div class="body">
          <div class="title bold">
race-plan.pdf
          </div>
          <div class="status details">
12.3 KB
          </div>
         </div>
        </a>
       </div>
       <div class="text">
Plan <a href="javascript:alert(1)">here</a>
       </div>`,
      { from: 'Ines <span class="details">via @planbot</span>' },
    ),
    telegramHtmlService(-2, '31 January 2024'),
    telegramHtmlMessage(
      7,
      '31.01.2024 23:58:00',
      `       <div class="media_wrap clearfix">
        <a class="media clearfix pull_left block_link media_voice_message" href="voice_messages/audio_1@31-01-2024_23-58-00.ogg">
         <div class="fill pull_left">
         </div>
         <div class="body">
          <div class="title bold">
Voice message
          </div>
          <div class="status details">
00:07, 12.1 KB
          </div>
         </div>
        </a>
       </div>`,
      { from: 'Tom' },
    ),
  ].join('')
  const second = [
    telegramHtmlMessage(
      8,
      '31.01.2024 23:59:30 UTC+01:00',
      `       <div class="media_wrap clearfix">
        <a class="sticker_wrap clearfix pull_left" href="stickers/sticker.webp">
         <img class="sticker" src="stickers/sticker.webp_thumb.jpg" style="width: 256px; height: 256px"/>
        </a>
       </div>`,
      { from: 'Ines' },
    ),
    telegramHtmlService(-3, '1 February 2024'),
    telegramHtmlService(9, 'Tom pinned a message'),
    telegramHtmlMessage(10, '01.02.2024 07:15:00 UTC+01:00', '       <div class="text">\n<pre>let boats = 2<br>boats += 1</pre>\n       </div>', { from: 'Tom' }),
  ].join('')
  return {
    'messages.html': telegramHtmlPage('Rowing club', first, 'messages2.html'),
    'messages2.html': telegramHtmlPage('Rowing club', second),
    'css/style.css': '.page_wrap { background-color: #ffffff; }\n',
    'js/script.js': 'function CheckLocation() {\n  return true\n}\n',
    'files/race-plan.md': '# Race plan\n\nStart at the buoy.\n',
  }
}
