// test-runner: shares a process
import t from 'tap'
import { convert, ConvertError, scrubSecrets } from '../../src/convert/index.js'

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v))

t.test('ChatGPT export: follows current_node branch, one page per conversation', async (t) => {
  const conv = {
    id: 'abc123',
    title: 'Trip plan',
    create_time: 1700000000,
    current_node: 'n3',
    mapping: {
      n0: { message: { author: { role: 'system' }, content: { parts: ['sys'] } }, parent: null },
      n1: { message: { author: { role: 'user' }, content: { parts: ['Where to go?'] }, create_time: 1700000001 }, parent: 'n0' },
      n2x: { message: { author: { role: 'assistant' }, content: { parts: ['ABANDONED BRANCH'] } }, parent: 'n1' },
      n3: { message: { author: { role: 'assistant' }, content: { parts: ['Go to Lisbon.'] } }, parent: 'n1' },
    },
  }
  const r = await convert({ bytes: enc([conv, { ...conv, id: 'def456', title: '' }]), name: 'conversations.json' })
  t.equal(r.format, 'chatgpt')
  t.equal(r.drafts.length, 2)
  const d = r.drafts[0]!
  t.equal(d.title, 'Trip plan')
  t.match(d.body, /## user — 2023-11-14T22:13:21\.000Z\n\nWhere to go\?/)
  t.match(d.body, /## assistant\n\nGo to Lisbon\./)
  t.notMatch(d.body, /ABANDONED|sys/)
  t.equal(d.frontmatter.source_format, 'chatgpt')
  t.equal(d.frontmatter.messages, 2)
  t.equal(r.drafts[1]!.title, 'Conversation 2')
  t.not(r.drafts[0]!.slugHint, r.drafts[1]!.slugHint)
  t.equal(r.counts.conversations, 2)
})

t.test("ChatGPT export: a message's own headings nest under it; code it ran, its output and pictures are kept", async (t) => {
  const message = (role: string, content: Record<string, unknown>, parent: string | null) => ({ message: { author: { role }, content }, parent })
  const conv = {
    id: 'c-9',
    title: 'Espresso',
    current_node: 'n5',
    mapping: {
      n1: message('user', { content_type: 'multimodal_text', parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'file-service://x' }, 'Which one is this?'] }, null),
      n2: message('assistant', { content_type: 'text', parts: ['# Comparison\n\n## Option A\nFine.\n\n```md\n# not a heading\n```'] }, 'n1'),
      n3: message('assistant', { content_type: 'code', language: 'python', text: 'print("```")' }, 'n2'),
      n4: message('tool', { content_type: 'execution_output', text: '```' }, 'n3'),
      n5: message('assistant', { content_type: 'text', parts: ['A Rancilio.'] }, 'n4'),
    },
  }
  const d = (await convert({ bytes: enc([conv]), name: 'conversations.json' })).drafts[0]!
  t.match(d.body, /## user\n\n\[image\]\n\nWhich one is this\?/)
  t.match(d.body, /## assistant\n\n### Comparison\n\n#### Option A\nFine\./)
  t.match(d.body, /```md\n# not a heading\n```/, 'headings in fenced code stay as written')
  t.match(d.body, /## assistant\n\n````python\nprint\("```"\)\n````/, 'the code, in a fence its own backticks cannot close')
  t.match(d.body, /## tool\n\n> tool result: ```/)
  t.equal(d.frontmatter.messages, 5)
  t.same(d.body.match(/^#{1,2} \S+$/gm), ['# Espresso', '## user', '## assistant', '## assistant', '## tool', '## assistant'], 'only the title and the messages at the top two levels')
})

t.test('Claude.ai export: text and condensed tool calls', async (t) => {
  const conv = {
    uuid: 'u-1',
    name: 'Refactor',
    created_at: '2024-01-01T00:00:00Z',
    chat_messages: [
      { sender: 'human', text: 'Help', created_at: '2024-01-01T00:00:01Z', content: [] },
      {
        sender: 'assistant',
        content: [
          { type: 'text', text: 'Sure.' },
          { type: 'tool_use', name: 'search', input: { q: 'x\ny' } },
        ],
      },
    ],
  }
  const r = await convert({ bytes: enc([conv]), name: 'conversations.json' })
  t.equal(r.format, 'claude')
  const body = r.drafts[0]!.body
  t.match(body, /## human — 2024-01-01T00:00:01Z\n\nHelp/)
  t.match(body, /> tool `search`: \{"q":"x\\ny"\}/)
})

t.test('agent JSONL: one page, title from first user message, secrets scrubbed and counted', async (t) => {
  const key = 'AKIA' + 'ABCDEFGHIJKLMNOP'
  const lines = [
    { type: 'summary', summary: 'x' },
    { type: 'user', sessionId: 's-9', timestamp: '2025-02-02T10:00:00Z', message: { role: 'user', content: `Deploy with ${key}` } },
    {
      type: 'assistant',
      timestamp: '2025-02-02T10:00:05Z',
      message: { role: 'assistant', content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] },
    },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'a.txt\nb.txt' }] } },
  ]
  const r = await convert({ bytes: enc(lines.map((l) => JSON.stringify(l)).join('\n')), name: 'session.jsonl' })
  t.equal(r.format, 'agent-jsonl')
  t.equal(r.drafts.length, 1)
  const d = r.drafts[0]!
  t.notMatch(d.body, new RegExp(key))
  t.notMatch(d.title, new RegExp(key))
  t.match(d.body, /\[redacted:aws-access-key\]/)
  t.match(d.body, /> tool `bash`: \{"command":"ls"\}/)
  t.match(d.body, /> tool result: a\.txt b\.txt/)
  t.equal(d.frontmatter.conversation_id, 's-9')
  t.equal(r.counts.secrets_scrubbed, 1)
})

t.test('scrubSecrets keeps prefixes and counts each pattern', async (t) => {
  const r = scrubSecrets('password = hunter22\nhttps://bob:s3cret@example.org/x\nAuthorization: Bearer abcdefghijklmnopqrstuvwxyz')
  t.equal(r.count, 3)
  t.match(r.text, /password = \[redacted:assignment\]/)
  t.match(r.text, /https:\/\/bob:\[redacted:url-password\]@example\.org/)
  t.match(r.text, /Bearer \[redacted:bearer\]/)
  t.equal(scrubSecrets('nothing here').count, 0)
})

t.test('typed errors: unsupported content and size cap', async (t) => {
  await t.rejects(convert({ bytes: enc('{"a":1}'), name: 'x.json' }), { code: 'convert_unsupported' })
  await t.rejects(convert({ bytes: enc('[]'), name: 'big.json' }, { maxBytes: 1, maxDrafts: 10 }), { code: 'convert_too_large' })
  try {
    await convert({ bytes: enc('not json'), name: 'x.json' })
    t.fail('should throw')
  } catch (err) {
    t.ok(err instanceof ConvertError)
  }
})

t.test('agent JSONL: a secret is scrubbed before a title or a tool line is cut short', async (t) => {
  const token = 'ghp_' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab'
  const lines = [
    { type: 'user', sessionId: 's-10', message: { role: 'user', content: `Prep my call with Tobiah Marsh, and the key is ${token}` } },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', name: 'bash', input: { command: `${'x'.repeat(90)} GITHUB_TOKEN=${token}` } }] } },
  ]
  const r = await convert({ bytes: enc(lines.map((l) => JSON.stringify(l)).join('\n')), name: 'session.jsonl' })
  const d = r.drafts[0]!
  for (const text of [d.title, d.body]) t.notMatch(text, /ghp_[A-Za-z0-9]{8}/, 'not even a cut piece of the token')
  t.match(d.title, /\[redacted:github-token\]/)
})
