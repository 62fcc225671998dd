// test-runner: shares a process
/**
 * The hook's own path into the brain, in this process with no service (BRAIN_NO_SERVICE=1), on
 * both engines: typed operation calls (start_session, recall, submit_job), never a command line.
 * Covers compaction, the active source by working directory, long prompts, Codex's and Cursor's
 * reply forms, and the hooks.log line (what was injected, never the prompt).
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import t from 'tap'
import { runHook } from '../../src/cli/hook.js'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'
import { importPage } from '../../src/pages/index.js'
import { createPgDatabase, ENGINES } from '../helpers/engines.js'

interface Hooked {
  stdout: string
  context: string | null
}

async function hook(env: Record<string, string>, harness: string, event: string, input: unknown, cwd = tmpdir(), extra: string[] = []): Promise<Hooked> {
  const out: Buffer[] = []
  const stdout = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk)
      cb()
    },
  })
  const code = await runHook([harness, event, ...extra], env, { stdin: Readable.from([JSON.stringify(input)]), stdout, cwd })
  t.equal(code, 0)
  const text = Buffer.concat(out).toString('utf8')
  if (text === '') return { stdout: '', context: null }
  const json = JSON.parse(text) as { hookSpecificOutput?: { additionalContext: string }; additional_context?: string }
  return { stdout: text, context: json.hookSpecificOutput?.additionalContext ?? json.additional_context ?? null }
}

for (const engine of ENGINES) {
  t.test(`hooks call the brain's operations in this process (${engine})`, async (t) => {
    const home = mkdtempSync(join(tmpdir(), 'brain-hook-'))
    const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', BRAIN_HOOK_TIMEOUT_MS: '120000' }
    if (engine === 'postgres') {
      const created = await createPgDatabase({ migrated: true })
      env.BRAIN_DATABASE_URL = created.url
      t.teardown(created.drop)
    }
    const work = join(home, 'work-notes')
    const db = await openDatabase(loadConfig({ env }).engine)
    try {
      await db.query(`INSERT INTO sources (id, name, local_path) VALUES ('work', 'work', $1)`, [work])
      const person = (title: string, summary: string) => `---\ntitle: ${title}\ntype: person\nsummary: ${summary}\n---\n\n${title}.\n`
      await importPage(db, { slug: 'people/tobiah-marsh', kind: 'markdown', content: person('Tobiah Marsh', 'Buyer at Marrowline.'), path: 'people/tobiah-marsh.md' })
      await importPage(db, { slug: 'people/odile-brackenridge', kind: 'markdown', content: person('Odile Brackenridge', 'Counsel.'), path: 'p.md', sourceId: 'work' })
      await importPage(db, { slug: 'notes/a', kind: 'markdown', content: '---\ntype: note\n---\n\nA.\n', path: 'a.md', sourceId: 'work' })
    } finally {
      await db.close()
    }
    const log = (): string => readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')

    t.test('session-start speaks of the active source only: the one the directory lies in', async (t) => {
      const inWork = await hook(env, 'claude-code', 'session-start', { session_id: 's0', source: 'startup', cwd: join(work, 'sub') })
      t.match(inWork.context, /brain \(source `work`\) .* holds 2 pages: 1 note, 1 person\./)
      const elsewhere = await hook(env, 'claude-code', 'session-start', { session_id: 's0', source: 'startup', cwd: tmpdir() })
      t.match(elsewhere.context, /holds 1 page: 1 person\./)
      t.notMatch(elsewhere.context, /work/)
      t.match(log(), /hook claude-code session-start: injected orientation of source work .*\(\d+ ms\)/)
    })

    t.test('recall once a session; a compaction makes the session start afresh', async (t) => {
      const prompt = 'prep my call with Tobiah Marsh'
      const first = await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 's1', prompt, cwd: tmpdir() })
      t.match(first.context, /people\/tobiah-marsh \(person\): Buyer at Marrowline\./)
      t.equal((await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 's1', prompt, cwd: tmpdir() })).stdout, '', 'told already')
      await hook(env, 'claude-code', 'session-start', { session_id: 's1', source: 'compact', cwd: tmpdir() })
      t.match((await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 's1', prompt, cwd: tmpdir() })).context, /people\/tobiah-marsh/, 'told again after compaction')
      await hook(env, 'claude-code', 'pre-compact', { session_id: 's1', trigger: 'auto', cwd: tmpdir() })
      t.match((await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 's1', prompt, cwd: tmpdir() })).context, /people\/tobiah-marsh/, 'and after a pre-compact')
      const lines = log()
      t.match(lines, /user-prompt-submit: injected 1: people\/tobiah-marsh \[in-process\] \(\d+ ms\)/)
      t.match(lines, /user-prompt-submit: nothing injected: /)
      t.match(lines, /session-start: injected orientation of source default, compacted: forgot 1 told items/)
      t.match(lines, /pre-compact: compacting: forgot 1 told items; no capture: no transcript_path/)
      t.notMatch(lines, /prep my call/, 'the prompt is never logged')
    })

    t.test('a prompt over 100,000 characters is recalled from its head and tail', async (t) => {
      const prompt = `About Tobiah Marsh: ${'x '.repeat(60_000)} and that is all`
      const res = await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 's2', prompt, cwd: tmpdir() })
      t.match(res.context, /people\/tobiah-marsh/)
    })

    t.test('codex answers in hookSpecificOutput; cursor orients in its flat form', async (t) => {
      const codex = await hook(env, 'codex', 'user-prompt-submit', { session_id: 'c1', prompt: 'ask Tobiah Marsh', cwd: tmpdir(), hook_event_name: 'UserPromptSubmit' })
      t.match(JSON.parse(codex.stdout), { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: /people\/tobiah-marsh/ } })
      const cursor = await hook(env, 'cursor', 'session-start', { conversation_id: 'k1', workspace_roots: [work], hook_event_name: 'sessionStart' })
      t.match(JSON.parse(cursor.stdout), { additional_context: /source `work`/ })
    })

    t.test('a hook installed for a source (--source) reads that source wherever the agent runs', async (t) => {
      const source = ['--source', 'work']
      const start = await hook(env, 'claude-code', 'session-start', { session_id: 'w1', source: 'startup', cwd: tmpdir() }, tmpdir(), source)
      t.match(start.context, /brain \(source `work`\)/, "orients in the installed source, not the directory's")
      const recalled = await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 'w1', prompt: 'prep my call with Odile Brackenridge', cwd: tmpdir() }, tmpdir(), source)
      t.match(recalled.context, /people\/odile-brackenridge/, 'recalls from the installed source')
      const other = await hook(env, 'claude-code', 'user-prompt-submit', { session_id: 'w2', prompt: 'prep my call with Tobiah Marsh', cwd: tmpdir() }, tmpdir(), source)
      t.equal(other.stdout, '', 'and nothing from another source')
    })

    t.test('a directory in no source reads the default source', async (t) => {
      const res = await hook(env, 'gemini-cli', 'user-prompt-submit', { session_id: 'g1', prompt: 'Tobiah Marsh' }, '/')
      t.match(res.context, /people\/tobiah-marsh/, 'a directory in no source reads the default source')
    })
  })
}
