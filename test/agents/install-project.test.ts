/**
 * `brain agents install --scope project`: shared files name nothing of this machine, --trust
 * writes the client's approval or trust (and nothing does without it), the instructions block is
 * written once per agent whichever scope comes first, Codex and opencode share AGENTS.md, and
 * doctor reports each install.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'
import { checkAgents } from '../../src/doctor/agents.js'
import { AGENTS, pendingSteps } from '../../src/agents/index.js'
import { agentDirs } from '../../src/config/index.js'
import { json, sandbox, snapshot } from '../helpers/agents-sandbox.js'
import { runBrain } from '../helpers/cli.js'

function filesUnder(dir: string, skip: string[]): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (skip.includes(name)) continue
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, skip))
    else out.push(full)
  }
  return out
}

t.test("committed project files hold no path of this machine, no brain home, no person's command", async (t) => {
  const s = sandbox({}, { brainHome: 'elsewhere/brain home' })
  for (const agent of AGENTS) await s.install(agent, { scope: 'project', source: 'work' })
  // Claude Code's local settings are this person's by design (and git-ignored by Claude Code).
  const shared = filesUnder(s.project, ['settings.local.json'])
  t.same(shared.map((f) => relative(s.project, f)).sort(), [
    '.codex/config.toml',
    '.codex/hooks.json',
    '.cursor/hooks.json',
    '.cursor/mcp.json',
    '.cursor/rules/brain.mdc',
    '.gemini/settings.json',
    '.mcp.json',
    'AGENTS.md',
    'CLAUDE.md',
    'GEMINI.md',
    'opencode.json',
  ])
  for (const file of shared) {
    const text = readFileSync(file, 'utf8')
    for (const machine of [s.root, s.brainHome, s.home, process.execPath, process.cwd()]) t.notOk(text.includes(machine), `${relative(s.project, file)} does not name ${machine}`)
  }
  const local = readFileSync(join(s.project, '.claude', 'settings.local.json'), 'utf8')
  t.ok(local.includes(join(s.brainHome, 'bin', 'brain')), "this person's launcher goes to the local settings")
})

/** Claude Code's own state file as it writes it: two-space JSON, no final newline, a record per project. */
function claudeState(project: string): string {
  const seen = { allowedTools: [], hasTrustDialogAccepted: false, projectOnboardingSeenCount: 1 }
  return JSON.stringify({ numStartups: 7, projects: { '/srv/other': { ...seen, hasTrustDialogAccepted: true }, [project]: seen }, userID: 'u1' }, null, 2)
}

t.test('--trust writes the approval and trust files; without it nothing is written there', async (t) => {
  const s = sandbox({ 'home/.codex/config.toml': 'model = "o3"\n', 'home/.gemini/trustedFolders.json': '{ "/srv/other": "TRUST_FOLDER" }\n' })
  writeFileSync(join(s.home, '.claude.json'), claudeState(s.project))
  const before = snapshot(s.root, s.brainHome)
  for (const agent of ['claude-code', 'codex', 'gemini-cli'] as const) {
    const plain = await s.install(agent, { scope: 'project' })
    t.ok(plain.changes.every((c) => !/trust/.test(c.holds)))
  }
  t.equal(readFileSync(join(s.home, '.codex', 'config.toml'), 'utf8'), 'model = "o3"\n', 'no Codex trust without --trust')
  t.equal(readFileSync(join(s.home, '.gemini', 'trustedFolders.json'), 'utf8'), before['home/.gemini/trustedFolders.json'], 'no Gemini trust without --trust')
  t.notOk('enabledMcpjsonServers' in json(join(s.project, '.claude', 'settings.local.json')))

  for (const agent of ['claude-code', 'codex', 'gemini-cli'] as const) await s.install(agent, { scope: 'project', trust: true })
  t.same(json(join(s.project, '.claude', 'settings.local.json')).enabledMcpjsonServers, ['brain'])
  const accepted = JSON.parse(claudeState(s.project)) as { projects: Record<string, Record<string, unknown>> }
  accepted.projects[s.project]!.hasTrustDialogAccepted = true
  t.equal(readFileSync(join(s.home, '.claude.json'), 'utf8'), JSON.stringify(accepted, null, 2), "Claude Code's trust dialog is accepted for the project, and nothing else in its file changes")
  t.equal(readFileSync(join(s.home, '.codex', 'config.toml'), 'utf8'), `model = "o3"\n\n[projects.${JSON.stringify(s.project)}]\ntrust_level = "trusted"\n`)
  t.same(json(join(s.home, '.gemini', 'trustedFolders.json')), { '/srv/other': 'TRUST_FOLDER', [s.project]: 'TRUST_FOLDER' })
  const checks = await checkAgents({ env: s.env, cwd: s.project })
  for (const agent of ['claude-code', 'codex', 'gemini-cli'])
    t.match(
      checks.find((c) => c.name === `agent ${agent} (project)`),
      { status: 'ok' },
      `${agent} needs nothing more`,
    )

  for (const agent of ['claude-code', 'codex', 'gemini-cli'] as const) await s.install(agent, { scope: 'project', trust: true, uninstall: true })
  t.same(snapshot(s.root, s.brainHome), before, 'uninstall --trust gives every file back, byte for byte')
})

t.test("Gemini CLI's user scope: --trust --project trusts the folder it runs in, and without it a step says so", async (t) => {
  const s = sandbox({ 'home/.gemini/trustedFolders.json': '{ "/srv/other": "TRUST_FOLDER" }\n' })
  const before = snapshot(s.root, s.brainHome)
  await s.install('gemini-cli')
  t.match(pendingSteps('gemini-cli', 'user', s.project, agentDirs(s.env)), [/^Gemini CLI: starts no MCP server, not even brain from user scope, in a folder it does not trust: .*--trust --project/])
  t.same(pendingSteps('codex', 'user', s.project, agentDirs(s.env)), [], 'the other agents run user-scope servers anywhere')

  const trusted = await s.install('gemini-cli', { trust: true })
  t.match(trusted.changes, [
    { holds: 'launcher' },
    { holds: 'MCP server and hooks', status: 'unchanged' },
    { holds: 'instructions block', status: 'unchanged' },
    { holds: 'folder trust', status: 'updated' },
  ])
  t.same(json(join(s.home, '.gemini', 'trustedFolders.json')), { '/srv/other': 'TRUST_FOLDER', [s.project]: 'TRUST_FOLDER' })
  t.same(pendingSteps('gemini-cli', 'user', s.project, agentDirs(s.env)), [])

  await s.install('gemini-cli', { trust: true, uninstall: true })
  t.same(snapshot(s.root, s.brainHome), before, 'uninstall --trust takes the trust back too')
})

t.test('the instructions block is written once per agent when both scopes are installed, in either order', async (t) => {
  const blocks = (path: string): number => (existsSync(path) ? (readFileSync(path, 'utf8').match(/brain:begin/g)?.length ?? 0) : 0)
  for (const [agent, userRules, projectRules] of [
    ['claude-code', '.claude/CLAUDE.md', 'CLAUDE.md'],
    ['gemini-cli', '.gemini/GEMINI.md', 'GEMINI.md'],
    ['codex', '.codex/AGENTS.md', 'AGENTS.md'],
  ] as const) {
    for (const order of ['user first', 'project first'] as const) {
      const s = sandbox({ [`project/${projectRules}`]: '# Project\n' })
      const before = snapshot(s.root, s.brainHome)
      const user = join(s.home, userRules)
      const project = join(s.project, projectRules)
      const scopes = order === 'user first' ? (['user', 'project'] as const) : (['project', 'user'] as const)
      for (const scope of scopes) await s.install(agent, { scope })
      t.equal(blocks(user), 1, `${agent}, ${order}: the user file has the block`)
      t.equal(readFileSync(project, 'utf8'), '# Project\n', `${agent}, ${order}: the project file has none`)
      const again = await s.install(agent, { scope: scopes[1] })
      t.ok(
        again.changes.every((c) => c.status === 'unchanged'),
        `${agent}, ${order}: a second install changes nothing`,
      )

      // Uninstalling one scope keeps the other's block.
      const gone = order === 'user first' ? 'user' : 'project'
      await s.install(agent, { scope: gone, uninstall: true })
      if (gone === 'user') {
        t.equal(blocks(user), 0, `${agent}: the user block is gone`)
        t.equal(blocks(project), 1, `${agent}: the project's block is back`)
      } else {
        t.equal(blocks(user), 1, `${agent}: the user block stays`)
        t.equal(blocks(project), 0)
      }
      await s.install(agent, { scope: gone === 'user' ? 'project' : 'user', uninstall: true })
      t.same(snapshot(s.root, s.brainHome), before, `${agent}, ${order}: both uninstalled, every file is as it was`)
    }
  }
})

t.test('a user install leaves the project block another agent there still reads', async (t) => {
  const s = sandbox({ 'project/AGENTS.md': '# Agents\n' })
  await s.install('codex', { scope: 'project' })
  await s.install('opencode', { scope: 'project' })
  await s.install('codex')
  t.equal(readFileSync(join(s.project, 'AGENTS.md'), 'utf8').match(/brain:begin/g)?.length, 1, 'opencode has no user block: the project keeps it')
  await s.install('opencode')
  t.equal(readFileSync(join(s.project, 'AGENTS.md'), 'utf8'), '# Agents\n', 'both read their user blocks: the project has none')
  await s.install('codex', { uninstall: true })
  t.equal(readFileSync(join(s.project, 'AGENTS.md'), 'utf8').match(/brain:begin/g)?.length, 1, 'codex without its user block reads the project one again')
})

t.test('Codex and opencode share a project AGENTS.md: uninstalling one keeps the block the other reads', async (t) => {
  const s = sandbox({ 'project/AGENTS.md': '# Agents\n' })
  await s.install('codex', { scope: 'project' })
  await s.install('opencode', { scope: 'project' })
  const both = readFileSync(join(s.project, 'AGENTS.md'), 'utf8')
  t.equal(both.match(/brain:begin/g)?.length, 1)
  await s.install('codex', { scope: 'project', uninstall: true })
  t.equal(readFileSync(join(s.project, 'AGENTS.md'), 'utf8'), both, 'opencode still reads it')
  await s.install('opencode', { scope: 'project', uninstall: true })
  t.equal(readFileSync(join(s.project, 'AGENTS.md'), 'utf8'), '# Agents\n', 'the last one out removes it')
})

t.test('doctor lists each installed agent, whether its command runs and what its client needs', async (t) => {
  const s = sandbox()
  t.match(await checkAgents({ env: s.env, cwd: s.project }), [{ name: 'agents', status: 'ok' }])
  await s.install('claude-code')
  await s.install('cursor', { scope: 'project' })
  const checks = await checkAgents({ env: s.env, cwd: s.project })
  t.match(checks, [
    { name: 'agent claude-code (user)', status: 'ok', message: /command runs \(\d+\./ },
    { name: 'agent cursor (project)', status: 'warn', message: /Cursor Settings/ },
  ])
  const launcher = join(s.brainHome, 'bin', 'brain')
  writeFileSync(launcher, readFileSync(launcher, 'utf8').replace(/\[ -f '?([^' ]+)'? \]/, '[ -f /gone/brain.js ]'))
  const broken = await checkAgents({ env: s.env, cwd: s.project })
  t.match(broken[0], { status: 'fail', message: /does not start \(brain: .* is gone/ })
})

t.test('the CLI: a mistyped --project is an error and nothing is created', async (t) => {
  const s = sandbox()
  const res = await runBrain(['agents', 'install', 'codex', '--scope', 'project', '--project', 'no-such-dir', '--json'], s.env, undefined, s.project)
  t.equal(res.code, 1)
  t.match(res.json(), { error: { class: 'UsageError', code: 'project_not_found' } })
  t.same(readdirSync(s.project), [])
  const refusals: Array<[string[], string]> = [
    [['vim'], 'unknown_agent'],
    [['codex', '--scope', 'global'], 'invalid_scope'],
    [['codex', '--trust'], 'trust_needs_project'],
    [['gemini-cli', '--trust'], 'trust_needs_project'],
    [['opencode', '--project', '.'], 'project_needs_scope'],
    [['codex', '--command', '"node'], 'invalid_command'],
  ]
  for (const [args, code] of refusals) {
    const refused = await runBrain(['agents', 'install', ...args, '--json'], s.env, undefined, s.project)
    t.match(refused.json(), { error: { class: 'UsageError', code } }, args.join(' '))
  }
  t.same(readdirSync(s.home), [], 'a refused install writes nothing, not even the launcher')
  const ok = await runBrain(['agents', 'install', 'gemini-cli', '--scope', 'project', '--json'], s.env, undefined, s.project)
  t.equal(ok.code, 0, ok.stderr)
  t.match(ok.json(), { pending: [/^Gemini CLI: .*--trust/] })
  const user = await runBrain(['agents', 'install', 'gemini-cli', '--trust', '--project', s.project, '--json'], s.env, undefined, s.home)
  t.equal(user.code, 0, user.stderr)
  t.match(
    user.json(),
    {
      scope: 'user',
      files: [{ holds: 'launcher' }, {}, {}, { path: join(s.project, 'GEMINI.md'), status: 'deleted' }, { path: join(s.home, '.gemini', 'trustedFolders.json'), status: 'created' }],
      pending: [],
    },
    'user scope with --trust trusts --project',
  )
})

t.test("Claude Code's local settings in a git work tree: a step until git ignores them", async (t) => {
  const s = sandbox()
  execFileSync('git', ['init', '-q'], { cwd: s.project })
  const first = await s.install('claude-code', { scope: 'project', trust: true })
  t.match(first.changes, [{ holds: 'launcher' }])
  t.same(pendingSteps('claude-code', 'project', s.project, agentDirs(s.env)), ['git: add .claude/settings.local.json to .gitignore; it holds paths of this machine.'])
  writeFileSync(join(s.project, '.gitignore'), '.claude/settings.local.json\n')
  t.same(pendingSteps('claude-code', 'project', s.project, agentDirs(s.env)), [])
})

t.test("hooks an older install put in a project's shared Claude Code settings move to the local ones", async (t) => {
  const legacy =
    '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "guard.sh" }] },\n      { "hooks": [{ "type": "command", "command": "brain hook claude-code stop", "timeout": 10 }] }\n    ]\n  }\n}\n'
  const s = sandbox({ 'project/.claude/settings.json': legacy })
  await s.install('claude-code', { scope: 'project' })
  t.same(json(join(s.project, '.claude', 'settings.json')), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'guard.sh' }] }] } }, "only brain's old hook leaves the shared file")
  t.match(json(join(s.project, '.claude', 'settings.local.json')), { hooks: { Stop: [{ hooks: [{ command: /hook claude-code stop # brain:agents-install$/ }] }] } })
})
