import t from 'tap'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ENGINES } from '../helpers/engines.js'
import { cliBrain, type CliBrain, type CliResult } from '../helpers/cli.js'

interface Step {
  args: string[]
  input?: string
  /** Run from the fixture folder, so relative paths must resolve against the client's cwd. */
  inFixture?: boolean
}

const NOTE = '---\ntitle: Alpha notes\ntags: [greek]\n---\n# Alpha notes\n\nAlpha beta gamma, the vacuum of letters.\n'

const SCRIPT: Step[] = [
  { args: ['init'] },
  { args: ['put', 'notes/alpha', '--no-embed'], input: NOTE },
  { args: ['put', 'notes/alpha', '--no-embed', '--no-json'], input: NOTE },
  { args: ['put', 'notes/empty'], input: '' },
  { args: ['get', 'notes/alpha'] },
  { args: ['get', 'notes/alpha', '--no-json'] },
  { args: ['get', 'notes/missing'] },
  { args: ['get', 'notes/missing', '--no-json'] },
  { args: ['tag', 'notes/alpha', 'letters'] },
  { args: ['list'] },
  { args: ['list', '--no-json'] },
  { args: ['import', 'docs', '--no-embed'], inFixture: true },
  { args: ['import', 'docs', '--no-embed', '--no-json'], inFixture: true },
  { args: ['capture', '--file', 'docs/idea.md', '--slug', 'inbox/idea', '--no-embed'], inFixture: true },
  { args: ['search', 'alpha'] },
  { args: ['search', 'vacuum', '--no-json'] },
  { args: ['search', 'nothingmatcheshere', '--no-json'] },
  { args: ['config', 'set', 'auto_link', 'false'] },
  { args: ['config', 'get', 'auto_link', '--no-json'] },
  { args: ['sources', 'list', '--no-json'] },
  { args: ['jobs', 'list', '--no-json'] },
  { args: ['jobs', 'stats'] },
  { args: ['search'] },
  { args: ['frobnicate'] },
  { args: ['jobs'] },
  { args: ['delete', 'notes/alpha'] },
  { args: ['list', '--no-json'] },
]

function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-identity-'))
  mkdirSync(join(root, 'docs', 'deep'), { recursive: true })
  writeFileSync(join(root, 'docs', 'vacuum.md'), '# Vacuum\n\nPostgres vacuum reclaims dead tuples.\n')
  writeFileSync(join(root, 'docs', 'deep', 'letters.md'), '# Letters\n\nAlpha and omega.\n')
  writeFileSync(join(root, 'docs', 'idea.md'), '# Idea\n\nA vacuum of ideas.\n')
  return root
}

/** What legitimately differs between two brains: their homes, databases, ids and clocks. */
function normalize(text: string, brain: CliBrain): string {
  let out = text.split(brain.home).join('<HOME>')
  if (brain.env.BRAIN_DATABASE_URL) out = out.split(new URL(brain.env.BRAIN_DATABASE_URL).pathname.slice(1)).join('<DB>')
  return out
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?/g, '<TIME>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
    .replace(/"(duration_ms|elapsed_ms|ms)": \d+/g, '"$1": <N>')
    .replace(/\d+ ms\b/g, '<N> ms')
}

function shape(result: CliResult, brain: CliBrain): { code: number; stdout: string; stderr: string } {
  return { code: result.code, stdout: normalize(result.stdout, brain), stderr: normalize(result.stderr, brain) }
}

// The engines' brains share nothing either: both scripts run side by side.
t.jobs = ENGINES.length
for (const engine of ENGINES) {
  t.test(`every command prints the same in-process and through the service [${engine}]`, { buffered: true }, async (t) => {
    const root = fixture()
    const local = await cliBrain(engine, { mode: 'in-process' })
    t.teardown(local.cleanup)
    const served = await cliBrain(engine, { mode: 'service' })
    t.teardown(served.cleanup)
    const servedResults: CliResult[] = []
    for (const step of SCRIPT) {
      const options = { input: step.input, cwd: step.inFixture ? root : undefined }
      // The two brains share nothing, so each step runs on both at once.
      const [a, b] = await Promise.all([local.run(step.args, options), served.run(step.args, options)])
      t.same(shape(b, served), shape(a, local), `brain ${step.args.join(' ')}`)
      servedResults.push(b)
    }
    const firstImport = servedResults[SCRIPT.findIndex((s) => s.args[0] === 'import')]!
    t.equal(firstImport.json<{ created: number }>().created, 3, "the relative import path resolved against the client's directory")
    const imported = await served.run(['get', 'deep/letters', '--no-json'])
    t.match(imported.stdout, /Alpha and omega/)
  })
}
