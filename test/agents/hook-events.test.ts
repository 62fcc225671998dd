/**
 * What a hook reads from an agent's stdin and what it prints back, as pure functions: the JSON
 * forms of Claude Code's and Gemini CLI's hooks, and the context built from recall and stats.
 */
import t from 'tap'
import { hookEvents, hookReply, hookSpec, orientationText, parseHookInput, recallContext } from '../../src/agents/index.js'

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
})

t.test('hook stdin: the fields brain reads, or null for anything that is not a JSON object', async (t) => {
  const input = parseHookInput(JSON.stringify({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/p', hook_event_name: 'UserPromptSubmit', prompt: 'hi Toby', source: 'startup', extra: 1 }))
  t.same(input, { sessionId: 's1', transcriptPath: '/t.jsonl', cwd: '/p', hookEventName: 'UserPromptSubmit', prompt: 'hi Toby', source: 'startup' })
  t.same(parseHookInput('{"prompt": 42, "session_id": ""}'), { sessionId: null, transcriptPath: null, cwd: null, hookEventName: null, prompt: null, source: null })
  for (const bad of ['', 'not json', '[1,2]', 'null', '"text"', '{"a":']) t.equal(parseHookInput(bad), null, JSON.stringify(bad))
})

t.test('a reply is the harness JSON form, and nothing when there is nothing to say', async (t) => {
  t.equal(hookReply('UserPromptSubmit', null), '')
  t.equal(hookReply('UserPromptSubmit', '  '), '')
  const out = hookReply('UserPromptSubmit', 'ctx')
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

t.test('the orientation names the counts by type and source, and how to search', async (t) => {
  const text = orientationText({
    pages: 12,
    by_type: [
      { type: 'note', pages: 7 },
      { type: 'person', pages: 5 },
    ],
    by_source: [{ source_id: 'default', pages: 12 }],
  })
  t.match(text, /holds 12 pages: 7 note, 5 person; sources: 12 default\./)
  t.match(text, /`query`/)
  t.match(orientationText({ pages: 0, by_type: [], by_source: [] }), /empty/)
  t.equal(orientationText({}), null)
  t.equal(orientationText(null), null)
})
