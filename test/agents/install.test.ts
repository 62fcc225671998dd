/**
 * `brain agents install`, in-process, for each agent and both scopes, on sample config files that
 * already hold other tools' entries: what it adds, that a second run changes nothing, that a dry
 * run writes nothing, and that --uninstall gives every file back byte for byte.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { planDiff, type InstallRequest } from '../../src/agents/index.js'
import { json, sandbox, snapshot, type Sandbox } from '../helpers/agents-sandbox.js'

const RULES = '# House rules\n\nUse tabs.\n'

/** Installs, checks idempotence, dry run and uninstall; `check` looks at the installed files. */
async function roundTrip(t: Test, files: Record<string, string>, agent: InstallRequest['agent'], request: Partial<InstallRequest>, check: (s: Sandbox) => void): Promise<void> {
  const s = sandbox(files)
  const before = snapshot(s.root, s.brainHome)

  const dry = await s.install(agent, { ...request, dryRun: true })
  t.match(await planDiff(dry.changes), /^\+\+\+ /m, 'the dry run has a diff')
  t.same(snapshot(s.root, s.brainHome), before, 'a dry run writes nothing')
  t.notOk(existsSync(s.brainHome), 'not even the launcher')

  const installed = await s.install(agent, request)
  t.match(installed.version, /^\d+\.\d+/, 'the command was started with --version')
  t.ok(
    s.statuses(installed).every((status) => status !== 'unchanged'),
    'each file is written',
  )
  check(s)
  const after = snapshot(s.root, s.brainHome)

  const again = await s.install(agent, request)
  t.same(
    again.changes.map((c) => c.status),
    again.changes.map(() => 'unchanged'),
    'a second install changes nothing, the launcher included',
  )
  t.same(snapshot(s.root, s.brainHome), after, 'byte for byte')

  const removed = await s.install(agent, { ...request, uninstall: true })
  t.same(snapshot(s.root, s.brainHome), before, 'uninstall gives back every file as it was, byte for byte')
  t.ok(
    removed.changes.every((c) => c.holds !== 'launcher'),
    'the launcher stays for the other agents',
  )
  const removedAgain = await s.install(agent, { ...request, uninstall: true })
  t.ok(
    removedAgain.changes.every((c) => c.status === 'unchanged'),
    'a second uninstall changes nothing',
  )
}

/** Laid out as no JSON.stringify would: uninstall must still give these bytes back. */
const claudeSettings =
  '{\n    "permissions": { "allow": ["Bash(npm test)"] },\n    "hooks": {\n        "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "other-memory inject" }] }],\n        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "guard.sh" }] }]\n    }\n}\n'

type Hooks = Record<string, Array<{ hooks: Array<{ command: string; timeout?: number }> }>>

t.test('claude-code, user scope: hooks and the MCP server start the launcher', async (t) => {
  const userConfig = '{"numStartups":12,"projects":{"/x":{"allowedTools":[]}},"mcpServers":{"notes":{"command":"notes-mcp"}}}'
  await roundTrip(t, { 'home/.claude.json': userConfig, 'home/.claude/settings.json': claudeSettings, 'home/.claude/CLAUDE.md': RULES }, 'claude-code', {}, (s) => {
    const launcher = join(s.brainHome, 'bin', 'brain')
    const config = json(join(s.home, '.claude.json'))
    t.equal(config.numStartups, 12)
    t.same((config.mcpServers as Record<string, unknown>).brain, { command: launcher, args: ['serve', '--tools', 'memory'] })
    const hooks = json(join(s.home, '.claude', 'settings.json')).hooks as Hooks
    t.equal(hooks.UserPromptSubmit![0]!.hooks[0]!.command, 'other-memory inject', "another tool's hook stays first")
    t.equal(hooks.UserPromptSubmit![1]!.hooks[0]!.command, `${launcher} hook claude-code user-prompt-submit # brain:agents-install`)
    t.equal(hooks.Stop![0]!.hooks[0]!.command, `${launcher} hook claude-code stop # brain:agents-install`)
    t.equal(hooks.PreToolUse![0]!.hooks[0]!.command, 'guard.sh')
    t.match(readFileSync(join(s.home, '.claude', 'CLAUDE.md'), 'utf8'), /^# House rules[\s\S]*<!-- brain:begin[^\n]*-->\n## Memory: the brain\n[\s\S]*<!-- brain:end -->\n$/)
    t.notOk(existsSync(join(s.project, '.mcp.json')), 'user scope writes nothing in the project')
  })
})

t.test('claude-code, project scope: the shared files get the launcher lookup, the local settings the hooks', async (t) => {
  await roundTrip(
    t,
    { 'project/.claude/settings.json': claudeSettings, 'project/.mcp.json': '{ "mcpServers": { "github": { "command": "gh-mcp" } } }\n', 'project/CLAUDE.md': RULES },
    'claude-code',
    { scope: 'project' },
    (s) => {
      t.equal(readFileSync(join(s.project, '.claude', 'settings.json'), 'utf8'), claudeSettings, 'the shared settings are not touched')
      const local = json(join(s.project, '.claude', 'settings.local.json'))
      t.equal((local.hooks as Hooks).SessionStart![0]!.hooks[0]!.command, `${join(s.brainHome, 'bin', 'brain')} hook claude-code session-start # brain:agents-install`)
      t.notOk('enabledMcpjsonServers' in local, 'no approval without --trust')
      const servers = json(join(s.project, '.mcp.json')).mcpServers as Record<string, { command: string; args: string[] }>
      t.same(servers.github, { command: 'gh-mcp' })
      t.same(servers.brain, { command: 'sh', args: ['-c', 'exec "${BRAIN_HOME:-$HOME/.brain}/bin/brain" "$@"', 'brain', 'serve', '--tools', 'memory'] })
    },
  )
})

t.test('codex: [mcp_servers.brain], hooks.json and the AGENTS.md block, both scopes', async (t) => {
  const toml = '# codex\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = [\n  "--port",\n  "[9000]",\n]\n\n[profiles.fast]\nmodel = "gpt-5"\n'
  const hooks = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify.sh"}]}]}}'
  await roundTrip(t, { 'home/.codex/config.toml': toml, 'home/.codex/hooks.json': hooks, 'home/.codex/AGENTS.md': RULES }, 'codex', {}, (s) => {
    const launcher = join(s.brainHome, 'bin', 'brain')
    t.equal(readFileSync(join(s.home, '.codex', 'config.toml'), 'utf8'), `${toml}\n[mcp_servers.brain]\ncommand = "${launcher}"\nargs = ["serve", "--tools", "memory"]\n`)
    const installed = json(join(s.home, '.codex', 'hooks.json')).hooks as Hooks
    t.same(Object.keys(installed), ['Stop', 'SessionStart', 'UserPromptSubmit'])
    t.equal(installed.Stop![0]!.hooks[0]!.command, 'notify.sh')
    t.equal(installed.Stop![1]!.hooks[0]!.command, `${launcher} hook codex stop # brain:agents-install`)
    t.equal(installed.UserPromptSubmit![0]!.hooks[0]!.timeout, 10, 'seconds')
  })
  await roundTrip(t, { 'project/.codex/config.toml': toml }, 'codex', { scope: 'project' }, (s) => {
    t.match(readFileSync(join(s.project, '.codex', 'config.toml'), 'utf8'), /\[mcp_servers\.brain\]\ncommand = "sh"\n/)
    t.equal(
      (json(join(s.project, '.codex', 'hooks.json')).hooks as Hooks).SessionStart![0]!.hooks[0]!.command,
      '"${BRAIN_HOME:-$HOME/.brain}/bin/brain" hook codex session-start # brain:agents-install',
    )
    t.ok(existsSync(join(s.project, 'AGENTS.md')))
  })
})

t.test('cursor: mcp.json beside other servers, hooks.json, and a rule file of its own in a project', async (t) => {
  // Laid out as no JSON.stringify would, with another tool's hooks on one of brain's events.
  const hooks = '{\n  "version": 1,\n  "hooks": {\n    "stop": [ { "command": "./hooks/audit.sh" } ],\n    "afterFileEdit": [ { "command": "prettier --write" } ]\n  }\n}\n'
  await roundTrip(
    t,
    {
      'project/.cursor/mcp.json': '{"mcpServers":{"linear":{"url":"https://mcp.linear.app/sse"}}}',
      'project/.cursor/hooks.json': hooks,
      'project/.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nUse tabs.\n',
    },
    'cursor',
    { scope: 'project' },
    (s) => {
      t.same(Object.keys(json(join(s.project, '.cursor', 'mcp.json')).mcpServers as object), ['linear', 'brain'])
      t.same(json(join(s.project, '.cursor', 'hooks.json')), {
        version: 1,
        hooks: {
          stop: [{ command: './hooks/audit.sh' }, { command: '"${BRAIN_HOME:-$HOME/.brain}/bin/brain" hook cursor stop # brain:agents-install' }],
          afterFileEdit: [{ command: 'prettier --write' }],
          sessionStart: [{ command: '"${BRAIN_HOME:-$HOME/.brain}/bin/brain" hook cursor session-start # brain:agents-install' }],
        },
      })
      t.match(readFileSync(join(s.project, '.cursor', 'rules', 'brain.mdc'), 'utf8'), /^---\ndescription: [^\n]+\nalwaysApply: true\n---\n\n<!-- brain:begin/)
    },
  )
  await roundTrip(t, {}, 'cursor', {}, (s) => {
    const launcher = join(s.brainHome, 'bin', 'brain')
    t.same(json(join(s.home, '.cursor', 'mcp.json')), { mcpServers: { brain: { command: launcher, args: ['serve', '--tools', 'memory'] } } })
    t.same(json(join(s.home, '.cursor', 'hooks.json')), {
      version: 1,
      hooks: { sessionStart: [{ command: `${launcher} hook cursor session-start # brain:agents-install` }], stop: [{ command: `${launcher} hook cursor stop # brain:agents-install` }] },
    })
  })
})

t.test('gemini-cli: mcpServers and hooks in settings.json, GEMINI.md block', async (t) => {
  const settings = '{"theme":"GitHub","mcpServers":{"web":{"httpUrl":"https://x/mcp"}},"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"audit.sh"}]}]}}\n'
  await roundTrip(t, { 'project/.gemini/settings.json': settings, 'project/GEMINI.md': RULES }, 'gemini-cli', { scope: 'project' }, (s) => {
    const value = json(join(s.project, '.gemini', 'settings.json'))
    const hooks = value.hooks as Hooks
    t.same(Object.keys(value.mcpServers as object), ['web', 'brain'])
    t.equal(hooks.BeforeTool![0]!.hooks[0]!.command, 'audit.sh')
    t.equal(hooks.BeforeAgent![0]!.hooks[0]!.command, '"${BRAIN_HOME:-$HOME/.brain}/bin/brain" hook gemini-cli user-prompt-submit # brain:agents-install')
    t.equal(hooks.SessionStart![0]!.hooks[0]!.timeout, 10000, 'Gemini CLI counts hook timeouts in milliseconds')
  })
  await roundTrip(t, { 'home/.gemini/settings.json': settings }, 'gemini-cli', {}, (s) => {
    t.ok(existsSync(join(s.home, '.gemini', 'GEMINI.md')))
  })
})

t.test('opencode: the mcp entry in opencode.json, AGENTS.md block; a file of only $schema comes back', async (t) => {
  const config = '{\n\t"$schema": "https://opencode.ai/config.json",\n\t"model": "anthropic/claude",\n\t"mcp": { "jira": { "type": "remote", "url": "https://jira/mcp" } }\n}\n'
  await roundTrip(t, { 'project/opencode.json': config, 'project/AGENTS.md': RULES }, 'opencode', { scope: 'project' }, (s) => {
    const mcp = json(join(s.project, 'opencode.json')).mcp as Record<string, { command: string[] }>
    t.same(Object.keys(mcp), ['jira', 'brain'])
    t.same(mcp.brain!.command.slice(0, 2), ['sh', '-c'])
  })
  await roundTrip(t, { 'project/opencode.json': '{ "$schema": "https://opencode.ai/config.json" }' }, 'opencode', { scope: 'project' }, () => undefined)
  await roundTrip(t, {}, 'opencode', {}, (s) => {
    t.same(json(join(s.home, '.config', 'opencode', 'opencode.json')).$schema, 'https://opencode.ai/config.json', 'a file brain creates gets the schema, and loses the file on uninstall')
    t.ok(existsSync(join(s.home, '.config', 'opencode', 'AGENTS.md')))
  })
})

t.test('with no brain on PATH, the commands written run', async (t) => {
  const s = sandbox()
  await s.install('claude-code')
  await s.install('gemini-cli', { scope: 'project' })
  const server = (json(join(s.home, '.claude.json')).mcpServers as Record<string, { command: string }>).brain!
  t.throws(() => execFileSync('sh', ['-c', 'command -v brain'], { env: s.env }), 'no brain on this PATH')
  t.match(execFileSync(server.command, ['--version'], { env: s.env, encoding: 'utf8' }), /^\d+\.\d+/, 'the MCP server command starts brain')
  const hook = (json(join(s.home, '.claude', 'settings.json')).hooks as Hooks).SessionStart![0]!.hooks[0]!.command
  // With no brain created, a hook answers nothing and exits 0: what matters is that it started.
  t.equal(execFileSync('sh', ['-c', hook], { env: s.env, input: '{"session_id":"s1"}', encoding: 'utf8' }), '')
  const shared = json(join(s.project, '.gemini', 'settings.json'))
  const entry = (shared.mcpServers as Record<string, { command: string; args: string[] }>).brain!
  t.match(
    execFileSync(entry.command, [...entry.args.slice(0, entry.args.indexOf('serve')), '--version'], { env: s.env, encoding: 'utf8' }),
    /^\d+\.\d+/,
    "the shared entry finds this person's launcher",
  )
})

t.test('--command is split into argv; its hooks are recognised by the marker whatever the command', async (t) => {
  const s = sandbox({ 'home/.claude/settings.json': '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"brain hook claude-code stop"}]}]}}' })
  const before = snapshot(s.root, s.brainHome)
  const bin = join(process.cwd(), 'bin', 'brain.js')
  const command = [process.execPath, bin]
  await s.install('claude-code', { command })
  const server = (json(join(s.home, '.claude.json')).mcpServers as Record<string, unknown>).brain
  t.same(server, { command: process.execPath, args: [bin, 'serve', '--tools', 'memory'] }, 'argv, not one quoted word')
  const hooks = json(join(s.home, '.claude', 'settings.json')).hooks as Hooks
  t.equal(hooks.Stop!.length, 1, 'the hook an older install wrote is replaced, not doubled')
  t.match(hooks.Stop![0]!.hooks[0]!.command, /^\S+ \S+brain\.js hook claude-code stop # brain:agents-install$/)
  const again = await s.install('claude-code', { command })
  t.ok(
    s.statuses(again).every((status) => status === 'unchanged'),
    'a second install with the same command changes nothing',
  )
  await s.install('claude-code', { uninstall: true })
  const after = snapshot(s.root, s.brainHome)
  t.same(Object.keys(after), Object.keys(before))
  t.same(json(join(s.home, '.claude', 'settings.json')), {}, "an uninstall without --command removes every one of brain's hooks")
})

t.test('a command that does not start is refused before any agent file is written', async (t) => {
  const s = sandbox()
  await t.rejects(s.install('codex', { command: ['/nonexistent/brain'] }), { code: 'agent_command_failed' })
  t.notOk(existsSync(join(s.home, '.codex')), 'no agent file written')
})

t.test('--source goes to the hooks and the server', async (t) => {
  const s = sandbox()
  await s.install('claude-code', { source: 'work' })
  t.same((json(join(s.home, '.claude.json')).mcpServers as Record<string, { args: string[] }>).brain!.args, ['serve', '--tools', 'memory', '--source', 'work'])
  t.match((json(join(s.home, '.claude', 'settings.json')).hooks as Hooks).UserPromptSubmit![0]!.hooks[0]!.command, / hook claude-code user-prompt-submit --source work # brain:agents-install$/)
})

t.test('a config file with comments is refused, and the hint gives the entries to add by hand', async (t) => {
  const text = '{\n  // mine\n  "mcpServers": {}\n}\n'
  const s = sandbox({ 'project/.gemini/settings.json': text })
  const err = (await s.install('gemini-cli', { scope: 'project' }).then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; hint: string }
  t.match(err, { code: 'agent_config_unreadable' })
  t.notMatch(err.hint, /--dry-run/)
  t.match(err.hint, /"mcpServers":\{"brain":\{"command":"sh"/)
  t.equal(readFileSync(join(s.project, '.gemini', 'settings.json'), 'utf8'), text, 'the file is left alone')
})
