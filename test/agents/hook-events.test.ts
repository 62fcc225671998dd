// test-runner: shares a process
/**
 * What a hook reads from an agent's stdin and what it prints back, as pure functions: the JSON
 * forms of Claude Code's, Gemini CLI's, Codex's and Cursor's hooks, and the context built from
 * recall and start_session.
 */
import t from 'tap'
import { hookEvents, hookReply, hookSpec, isCompactedStart, orientationText, parseHookInput, recallContext } from '../../src/agents/index.js'

t.test('each claude-code event maps to its action and Claude Code event name', async (t) => {
  t.match(hookSpec('claude-code', 'user-prompt-submit'), { action: 'recall', eventName: 'UserPromptSubmit' })
  t.match(hookSpec('claude-code', 'session-start'), { action: 'orient', eventName: 'SessionStart' })
  t.match(hookSpec('claude-code', 'stop'), { action: 'capture', eventName: 'Stop' })
  t.match(hookSpec('claude-code', 'pre-compact'), { action: 'capture', eventName: 'PreCompact' })
  t.match(hookSpec('gemini-cli', 'user-prompt-submit'), { action: 'recall', eventName: 'BeforeAgent' })
  t.equal(hookSpec('claude-code', 'toString'), null, 'no inherited names')
  t.equal(hookSpec('vim', 'stop'), null)
  t.equal(hookSpec(undefined, undefined), null)
  t.same(
    hookEvents('claude-code').map((e) => e.eventName),
    ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'],
  )
  t.match(hookSpec('claude-code', 'pre-compact'), { compacts: true })
  t.match(hookSpec('claude-code', 'stop'), { compacts: false })
})

t.test('codex answers as Claude Code does; cursor orients at session start in its flat form', async (t) => {
  t.match(hookSpec('codex', 'session-start'), { action: 'orient', eventName: 'SessionStart', reply: 'hook-specific' })
  t.match(hookSpec('codex', 'user-prompt-submit'), { action: 'recall', eventName: 'UserPromptSubmit' })
  t.match(hookSpec('codex', 'stop'), { action: 'capture', eventName: 'Stop' })
  t.same(
    hookEvents('codex').map((e) => e.eventName),
    ['SessionStart', 'UserPromptSubmit', 'Stop'],
  )
  t.match(hookSpec('cursor', 'session-start'), { action: 'orient', eventName: 'sessionStart', reply: 'flat' })
  t.match(hookSpec('cursor', 'stop'), { action: 'capture', eventName: 'stop' })
  t.equal(hookSpec('cursor', 'user-prompt-submit'), null, 'Cursor takes no context before a prompt')
  t.same(JSON.parse(hookReply(hookSpec('cursor', 'session-start')!, 'ctx')), { additional_context: 'ctx' })
  const cursorInput = parseHookInput(JSON.stringify({ conversation_id: 'c1', workspace_roots: ['/w/a', '/w/b'], hook_event_name: 'sessionStart' }))
  t.match(cursorInput, { sessionId: 'c1', cwd: '/w/a' })
})

t.test('a session-start after a compaction is told apart from a new one', async (t) => {
  t.equal(isCompactedStart(parseHookInput('{"source":"compact","session_id":"s"}')!), true)
  t.equal(isCompactedStart(parseHookInput('{"source":"startup","session_id":"s"}')!), false)
  t.equal(isCompactedStart(parseHookInput('{"session_id":"s"}')!), false)
})

t.test('hook stdin: the fields brain reads, or null for anything that is not a JSON object', async (t) => {
  const input = parseHookInput(JSON.stringify({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/p', hook_event_name: 'UserPromptSubmit', prompt: 'hi Toby', source: 'startup', extra: 1 }))
  t.same(input, { sessionId: 's1', transcriptPath: '/t.jsonl', cwd: '/p', hookEventName: 'UserPromptSubmit', prompt: 'hi Toby', source: 'startup' })
  t.same(parseHookInput('{"prompt": 42, "session_id": ""}'), { sessionId: null, transcriptPath: null, cwd: null, hookEventName: null, prompt: null, source: null })
  for (const bad of ['', 'not json', '[1,2]', 'null', '"text"', '{"a":']) t.equal(parseHookInput(bad), null, JSON.stringify(bad))
})

t.test('a reply is the harness JSON form, and nothing when there is nothing to say', async (t) => {
  const spec = hookSpec('claude-code', 'user-prompt-submit')!
  t.equal(hookReply(spec, null), '')
  t.equal(hookReply(spec, '  '), '')
  const out = hookReply(spec, 'ctx')
  t.ok(out.endsWith('\n'))
  t.same(JSON.parse(out), { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' } })
})

t.test('recall results become one line a page with its excerpt', async (t) => {
  t.equal(recallContext({ inject: [], tokens: 0, session: 's' }), null, 'nothing recalled: no context')
  t.equal(recallContext(null), null)
  t.equal(recallContext({ inject: 'x' }), null)
  const text = recallContext({
    inject: [
      { slug: 'people/tobiah', source_id: 'default', title: 'Tobiah Marsh', type: 'person', reason: 'alias "Toby"', excerpt: 'Budget closes in June.\n- 2026-10-01 met at the fair' },
      { slug: 'src/cache.ts', title: '', type: 'code', reason: 'defines `LruCache`', excerpt: '' },
      { title: 'no slug' },
    ],
    tokens: 40,
    session: 's',
  })
  t.match(text, /^From the user's brain \(cite by slug\):\n/)
  t.match(text, /\n- people\/tobiah Tobiah Marsh \(person\): Budget closes in June\.\n {2}- 2026-10-01 met at the fair/)
  t.match(text, /\n- src\/cache\.ts \(code\)$/)
  t.notMatch(text, /alias "Toby"/, 'why a page was picked stays in the JSON')
  const named = recallContext({ inject: [{ slug: 'people/tobiah-marsh', title: 'Tobiah Marsh', type: 'person', excerpt: 'Met in May.' }] })
  t.equal(named, "From the user's brain (cite by slug):\n- people/tobiah-marsh (person): Met in May.", 'a title the slug already says is left out')
  t.notMatch(text, /no slug/)
})

t.test('the orientation names the counts by type of the active source, and how to search', async (t) => {
  const text = orientationText({
    source_id: 'default',
    pages: 12,
    by_type: [
      { type: 'note', pages: 7 },
      { type: 'person', pages: 5 },
    ],
  })
  t.match(text, /holds 12 pages: 7 note, 5 person\./)
  t.notMatch(text, /source/, 'the default source goes unnamed')
  t.match(text, /`query`/)
  t.match(orientationText({ source_id: 'work', pages: 3, by_type: [{ type: 'note', pages: 3 }] }), /brain \(source `work`\) .* holds 3 pages: 3 note\./)
  t.match(orientationText({ pages: 0, by_type: [] }), /empty/)
  t.equal(orientationText({}), null)
  t.equal(orientationText(null), null)
})
