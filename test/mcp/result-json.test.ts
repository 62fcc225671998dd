// test-runner: shares a process
import t from 'tap'
import { errorResult, toolResultJson, type ToolResult } from '../../src/mcp/dispatch.js'

t.test('a result made by the dispatcher serialises as JSON.stringify would', async (t) => {
  const result = errorResult({ class: 'UsageError', code: 'odd_"chars"', hint: 'line one\nline two \u2028 ✓ \\ </script>', message: 'm' })
  const spliced = toolResultJson(result)
  t.same(JSON.parse(spliced), JSON.parse(JSON.stringify(result)), 'same value')
  t.equal(JSON.parse(spliced).content[0].text, JSON.stringify(result.structuredContent), 'the text is the compact structured JSON')
  t.equal(JSON.parse(spliced).isError, true)
})

t.test('any other result falls back to JSON.stringify', async (t) => {
  const handMade: ToolResult = { content: [{ type: 'text', text: 'not json at all' }], structuredContent: { a: 1 } }
  t.equal(toolResultJson(handMade), JSON.stringify(handMade))
  const changed = errorResult({ class: 'UsageError', code: 'x', hint: 'y', message: 'm' })
  const copy: ToolResult = { ...changed, content: [{ type: 'text', text: 'edited' }] }
  t.equal(toolResultJson(copy), JSON.stringify(copy), 'a copy is not trusted')
})
