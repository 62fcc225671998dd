import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BRAIN_BIN, runBrain, stopService, type CliResult } from '../helpers/cli.js'
import { makeRepo } from '../intake/sync/helpers.js'

interface Envelope {
  error: { class: string; code: string; hint: string; message: string }
}
interface StatusJson {
  id: string
  category: string
  state: string
  requirements: Array<{ requirement: string; ok: boolean; detail: string }>
  last_heartbeat: { ts: string; status: string; message?: string } | null
}

/** A PATH holding a `brain` that runs this checkout, as an installed brain would be found. */
function brainShimPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-bin-'))
  writeFileSync(join(dir, 'brain'), `#!/bin/sh\nexec '${process.execPath}' '${BRAIN_BIN}' "$@"\n`)
  chmodSync(join(dir, 'brain'), 0o755)
  return `${dir}:${process.env.PATH ?? ''}`
}

function setup(extraEnv: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'brain-int-'))
  // An unreachable server engine: the integrations commands must never connect.
  const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1', BRAIN_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...extraEnv }
  return {
    home,
    env,
    run: (args: string[], more: Record<string, string> = {}): Promise<CliResult> => runBrain(args, { ...env, ...more }),
    beat: (id: string, lines: string[]): void => {
      mkdirSync(join(home, 'integrations', id), { recursive: true })
      writeFileSync(join(home, 'integrations', id, 'heartbeat.jsonl'), lines.map((l) => `${l}\n`).join(''))
    },
    recipe: (file: string, text: string): void => {
      mkdirSync(join(home, 'integrations', 'recipes'), { recursive: true })
      writeFileSync(join(home, 'integrations', 'recipes', file), text)
    },
  }
}

const ago = (ms: number): string => new Date(Date.now() - ms).toISOString()

t.test('the bare dashboard has three sections and the shipped recipes, without a database', async (t) => {
  const brain = setup()
  const bare = await brain.run(['integrations'])
  t.equal(bare.code, 0, bare.stderr)
  const sections = bare.json<{ sections: Record<string, StatusJson[]> }>().sections
  t.same(Object.keys(sections), ['infrastructure', 'senses', 'reflexes'])
  t.same(
    sections.infrastructure!.map((s) => s.id),
    ['mcp-http-server', 'oauth-remote-agents', 'systemd-supervisor'],
  )
  t.same(
    sections.senses!.map((s) => s.id),
    ['agent-mcp-client', 'mcp-claude-code', 'mcp-claude-desktop', 'mcp-cursor', 'mcp-vscode'],
  )
  t.same(
    sections.reflexes!.map((s) => s.id),
    ['git-post-commit-sync'],
  )
  const human = await brain.run(['integrations', '--no-json'])
  t.match(human.stdout, /^Infrastructure\n[\s\S]*^Senses\n[\s\S]*^Reflexes\n/m)
  t.match(human.stdout, /git-post-commit-sync +not set up: brain is not on PATH/)
})

t.test('list shows each recipe with its requires; show explains one; an unknown id is integration_not_found', async (t) => {
  const brain = setup()
  const list = await brain.run(['integrations', 'list', '--json'])
  const rows = list.json<Array<{ id: string; category: string; requires: string[]; description: string }>>()
  t.ok(rows.length >= 3)
  t.match(
    rows.find((r) => r.id === 'git-post-commit-sync'),
    { category: 'reflexes', requires: ['bin:git', 'bin:brain'] },
  )
  for (const row of rows) t.ok(Array.isArray(row.requires) && row.description.length > 0, `${row.id} declares requires and a description`)
  const shown = await brain.run(['integrations', 'show', 'agent-mcp-client', '--json'], { PATH: brainShimPath() })
  t.match(shown.json(), { id: 'agent-mcp-client', category: 'senses', status: { state: 'no_heartbeat', requirements: [{ requirement: 'bin:brain', ok: true }] }, instructions: /mcpServers/ })
  const unknown = await brain.run(['integrations', 'show', 'nope'])
  t.equal(unknown.code, 1)
  t.match(unknown.json<Envelope>().error, { class: 'NotFoundError', code: 'integration_not_found', hint: /git-post-commit-sync/ })
  t.equal((await brain.run(['integrations', 'status', 'nope'])).json<Envelope>().error.code, 'integration_not_found')
  t.equal((await brain.run(['integrations', 'test', 'nope'])).json<Envelope>().error.code, 'integration_not_found')
})

t.test('status reads the latest heartbeat: healthy, degraded, failing, stale; requirements first', async (t) => {
  const brain = setup({ PATH: brainShimPath() })
  const recipe = (id: string, maxAge: string) => `---\nid: ${id}\nname: ${id}\ncategory: senses\ndescription: test recipe\nrequires: []\nheartbeat_max_age: ${maxAge}\n---\nbody\n`
  for (const id of ['fresh', 'warned', 'broken', 'old', 'quiet']) brain.recipe(`${id}.md`, recipe(id, '1h'))
  brain.recipe('needs.md', '---\nid: needs\nname: needs\ncategory: reflexes\ndescription: d\nrequires: ["env:BRAIN_TEST_TOKEN", "engine:postgres", "file:$BRAIN_HOME/marker", "bin:git"]\n---\n')
  // The newest by timestamp wins, even when an older line was appended after it.
  brain.beat('fresh', [JSON.stringify({ ts: ago(120_000), status: 'fail' }), JSON.stringify({ ts: ago(1000), status: 'ok', message: 'synced 3' }), JSON.stringify({ ts: ago(60_000), status: 'fail' })])
  brain.beat('warned', [JSON.stringify({ ts: ago(1000), status: 'warn', message: 'slow' })])
  brain.beat('broken', [JSON.stringify({ ts: ago(1000), status: 'fail', message: 'token expired' })])
  brain.beat('old', [JSON.stringify({ ts: ago(2 * 3_600_000), status: 'ok' })])
  const states = async (more: Record<string, string> = {}) => Object.fromEntries((await brain.run(['integrations', 'status', '--json'], more)).json<StatusJson[]>().map((s) => [s.id, s]))
  const s = await states()
  t.match(s.fresh, { state: 'healthy', last_heartbeat: { status: 'ok', message: 'synced 3' } })
  t.equal(s.warned!.state, 'degraded')
  t.match(s.broken, { state: 'failing', last_heartbeat: { message: 'token expired' } })
  t.equal(s.old!.state, 'stale')
  t.equal(s.quiet!.state, 'no_heartbeat')
  t.equal(s.needs!.state, 'missing_requirements')
  t.same(
    s.needs!.requirements.map((r) => r.ok),
    [false, true, false, true],
    'env unset, engine is postgres from config, file missing, git found',
  )
  writeFileSync(join(brain.home, 'marker'), '')
  const ready = await states({ BRAIN_TEST_TOKEN: 'secret-token-value' })
  t.equal(ready.needs!.state, 'no_heartbeat')
  t.notMatch(JSON.stringify(ready.needs), /secret-token-value/, 'an env requirement never shows the value')
  const onPglite = await runBrain(['integrations', 'status', 'needs', '--json'], { BRAIN_HOME: brain.home, BRAIN_TEST_TOKEN: 'x', PATH: process.env.PATH ?? '' })
  t.match(onPglite.json<StatusJson[]>()[0]!.requirements[1], { ok: false, detail: /uses pglite, not postgres/ })
})

t.test('test runs the requirements and the check command and records a heartbeat', async (t) => {
  const brain = setup({ PATH: brainShimPath() })
  brain.recipe('passes.md', '---\nid: passes\nname: p\ncategory: infrastructure\ndescription: d\nrequires: ["bin:sh"]\ncheck: [sh, -c, "echo fine"]\n---\n')
  brain.recipe('fails.md', '---\nid: fails\nname: f\ncategory: infrastructure\ndescription: d\ncheck: [sh, -c, "echo broken pipe >&2; exit 3"]\n---\n')
  const passed = await brain.run(['integrations', 'test', 'passes', '--json'])
  t.equal(passed.code, 0, passed.stderr)
  t.match(passed.json(), [{ id: 'passes', ok: true, check: { exit_code: 0, output: 'fine' }, heartbeat: { status: 'ok' } }])
  const failed = await brain.run(['integrations', 'test', 'fails', '--json'])
  t.equal(failed.code, 1)
  t.match(failed.json(), [{ id: 'fails', ok: false, check: { exit_code: 3 }, heartbeat: { status: 'fail', message: /exited 3: broken pipe/ } }])
  const mcp = await brain.run(['integrations', 'test', 'agent-mcp-client', '--json'])
  t.match(mcp.json(), [{ ok: true, check: { exit_code: 0, output: /^0\.38\.0\.0$/ } }], 'the shipped MCP recipe checks the brain on PATH')
  const beats = readFileSync(join(brain.home, 'integrations', 'fails', 'heartbeat.jsonl'), 'utf8')
    .trim()
    .split('\n')
  t.equal(beats.length, 1)
  t.match(JSON.parse(beats[0]!), { status: 'fail', via: 'brain integrations test' })
  const status = await brain.run(['integrations', 'status', 'fails', '--json'])
  t.equal(status.json<StatusJson[]>()[0]!.state, 'failing')
})

t.test('doctor fails on a broken recipe, a duplicate id or an unreadable heartbeat; stats counts beats', async (t) => {
  const brain = setup()
  const healthy = await brain.run(['integrations', 'doctor', '--json'])
  t.equal(healthy.code, 0, 'recipes that are only not set up warn')
  t.equal(healthy.json().status, 'warn')
  brain.recipe('bad.md', '---\nid: bad\nname: Bad\ncategory: gadgets\ndescription: d\nrequires: bin:git\n---\n')
  brain.recipe('a-dup.md', '---\nid: dup\nname: A\ncategory: senses\ndescription: d\n---\n')
  brain.recipe('b-dup.md', '---\nid: dup\nname: B\ncategory: senses\ndescription: d\n---\n')
  brain.recipe('notes.md', '# Notes about my recipes\n\nNot a recipe: no front matter.\n')
  brain.beat('dup', [JSON.stringify({ ts: ago(1000), status: 'ok' }), 'not json', JSON.stringify({ ts: ago(500), status: 'great' })])
  const doctor = await brain.run(['integrations', 'doctor', '--json'])
  t.equal(doctor.code, 1)
  const checks = doctor.json<{ status: string; checks: Array<{ name: string; status: string; message: string }> }>()
  t.equal(checks.status, 'fail')
  t.match(
    checks.checks.find((c) => c.name.endsWith('bad.md')),
    { status: 'fail', message: /invalid_recipe: category must be one of infrastructure, senses, reflexes; requires must be a list/ },
  )
  t.match(
    checks.checks.find((c) => c.name.endsWith('b-dup.md')),
    { status: 'fail', message: /duplicate_recipe_id: id dup is also declared by a-dup.md/ },
  )
  t.match(
    checks.checks.find((c) => c.name === 'dup'),
    { status: 'fail', message: /unreadable lines: 2, 3/ },
  )
  t.notOk(
    checks.checks.some((c) => c.name.endsWith('notes.md')),
    'markdown without front matter is not a recipe',
  )
  const human = await brain.run(['integrations', 'doctor', '--no-json'])
  t.match(human.stdout, /overall: fail/)
  const stats = await brain.run(['integrations', 'stats', '--json'])
  t.match(
    stats.json<{ integrations: unknown[] }>().integrations.find((i) => (i as { id: string }).id === 'dup'),
    { heartbeats: 1, ok: 1, fail: 0 },
  )
  t.match(stats.json(), { by_category: { senses: { integrations: 6, heartbeats: 1 }, infrastructure: { integrations: 3 }, reflexes: { integrations: 1 } } })
})

t.test('the git post-commit recipe, installed in a real repository, syncs after a commit and beats', async (t) => {
  const brain = setup({ PATH: brainShimPath() })
  // As for a user: the hook's `brain sync` and the later commands all reach the brain's service.
  const env = { BRAIN_HOME: brain.home, PATH: brain.env.PATH!, BRAIN_EMBEDDING_PROVIDER: 'local', BRAIN_NO_SERVICE: '0', BRAIN_SERVICE_IDLE_TIMEOUT: '10min' }
  t.teardown(() => stopService(brain.home))
  const recipe = readFileSync(join(import.meta.dirname, '..', '..', '..', 'recipes', 'git-post-commit-sync.md'), 'utf8')
  const script = /```sh\n([\s\S]*?)```/.exec(recipe)![1]!.replace('SOURCE="notes"', 'SOURCE="journal"')
  const repo = makeRepo({ 'first.md': '# First\n' })
  t.equal((await runBrain(['sources', 'add', 'journal', '--path', repo.dir], env)).code, 0)
  writeFileSync(join(repo.dir, '.git', 'hooks', 'post-commit'), script)
  chmodSync(join(repo.dir, '.git', 'hooks', 'post-commit'), 0o755)
  repo.write('second.md', '# Second\n')
  const { execFileSync } = await import('node:child_process')
  execFileSync('git', ['add', '-A'], { cwd: repo.dir })
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-qm', 'second'], { cwd: repo.dir, env: { ...env, HOME: brain.home } })
  const beats = join(brain.home, 'integrations', 'git-post-commit-sync', 'heartbeat.jsonl')
  for (let i = 0; i < 300 && !existsSync(beats); i++) await new Promise((r) => setTimeout(r, 100))
  t.ok(existsSync(beats), 'the hook wrote a heartbeat')
  t.match(JSON.parse(readFileSync(beats, 'utf8').trim().split('\n').at(-1)!), { status: 'ok', message: /^sync journal: / })
  const status = await runBrain(['integrations', 'status', 'git-post-commit-sync', '--json'], env)
  t.equal(status.json<StatusJson[]>()[0]!.state, 'healthy')
  const second = await runBrain(['get', 'second', '--json'], env)
  t.match(second.json(), { title: 'Second', source_id: 'journal' }, 'the commit was synced into the brain')
})
