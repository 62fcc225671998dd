import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { importFolder } from '../../src/intake/import/index.js'
import { cliBrain } from '../helpers/cli.js'
import { engineTest } from '../helpers/engines.js'

const AGENT_LOG = JSON.stringify({ type: 'user', sessionId: 's1', timestamp: '2024-01-01T00:00:00Z', message: { role: 'user', content: 'Fix the build' } }) + '\n'
const DATA = ['{"id":1,"name":"first row"}', '{"id":2,"name":"second row"}'].join('\n') + '\n'

async function repository(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'brain-jsonl-'))
  await mkdir(join(root, 'fixtures'))
  await mkdir(join(root, 'logs'))
  await writeFile(join(root, 'README-notes.md'), '# Notes\n\nAbout the repository.\n')
  await writeFile(join(root, 'fixtures', 'rows.jsonl'), DATA)
  await writeFile(join(root, 'fixtures', 'events.JSONL'), DATA)
  await writeFile(join(root, 'logs', 'session.jsonl'), AGENT_LOG)
  return root
}

engineTest(t, 'a .jsonl data file is listed as ignored, not failed; an agent log beside it still imports', async (t, { db }) => {
  const root = await repository()
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [], 'no failures')
  t.same(result.ignored, [
    { path: 'fixtures/events.JSONL', reason: 'not_a_chat_log' },
    { path: 'fixtures/rows.jsonl', reason: 'not_a_chat_log' },
  ])
  t.equal(result.formats['agent-jsonl']?.pages, 1, 'the agent log is a page')
  t.equal(result.formats.failed, undefined)
  t.equal(result.created, 2)
})

t.test('the import summary says skipped, not failed, for a data .jsonl', async (t) => {
  const root = await repository()
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const brain = await cliBrain('pglite', { mode: 'in-process' })
  t.teardown(brain.cleanup)
  const json = await brain.run(['import', root, '--no-embed', '--json'])
  t.equal(json.code, 0, json.stderr)
  t.match(json.json(), {
    failed: 0,
    failures: [],
    ignored: [
      { path: 'fixtures/events.JSONL', reason: 'not_a_chat_log' },
      { path: 'fixtures/rows.jsonl', reason: 'not_a_chat_log' },
    ],
  })
  const text = await brain.run(['import', root, '--no-embed', '--no-json'])
  t.match(text.stdout, /0 failed/)
  t.match(text.stdout, /skipped fixtures\/rows\.jsonl: not a chat log/)
  t.notMatch(text.stdout, /failed fixtures/)
})
