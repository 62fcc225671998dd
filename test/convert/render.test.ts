// test-runner: shares a process
import t from 'tap'
import { convert, hashBytes, renderDraft } from '../../src/convert/index.js'
import { parseMarkdownPage } from '../../src/pages/index.js'

t.test('rendered drafts parse as pages with front matter and source hash intact', async (t) => {
  const bytes = new TextEncoder().encode(JSON.stringify([{ uuid: 'u-2', name: 'Plan: "v2" # ideas', created_at: '2024-05-05T00:00:00Z', chat_messages: [{ sender: 'human', text: 'hi' }] }]))
  const r = await convert({ bytes, name: 'conversations.json' })
  const hash = hashBytes(bytes)
  t.match(hash, /^[0-9a-f]{64}$/)
  t.not(hash, hashBytes(new Uint8Array([1, 2, 3])))
  const page = parseMarkdownPage(renderDraft(r.drafts[0]!, hash), r.drafts[0]!.slugHint)
  t.equal(page.title, 'Plan: "v2" # ideas')
  t.equal(page.type, 'conversation')
  t.equal(page.frontmatter.source_format, 'claude')
  t.equal(page.frontmatter.source_hash, hash)
  t.equal(page.frontmatter.messages, 1)
  t.match(page.compiledTruth, /## human\n\nhi/)
})
