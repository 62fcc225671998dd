/**
 * `brain agents install` for each agent, on sample config files that already hold other tools'
 * entries: what it adds, that a second run changes nothing, that --dry-run prints the diff and
 * writes nothing, and that --uninstall gives the files back with only brain's entries gone.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import t, { type Test } from 'tap'
import { runBrain, type CliResult } from '../helpers/cli.js'

interface Sandbox {
  home: string
  project: string
  env: Record<string, string>
  run(args: string[]): Promise<CliResult>
}

function sandbox(files: Record<string, string>): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'brain-agents-'))
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(home)
  mkdirSync(project)
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, text)
  }
  // No BRAIN_HOME: the entries then name no brain home, as a default install does.
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
  return { home, project, env, run: (args) => runBrain(['agents', 'install', ...args, '--json'], env, undefined, project) }
}

/**
 * Every file under a directory with its text, to compare a tree before and after. JSON files are
 * compared by value: brain writes them back in JSON.stringify's layout with the file's indent.
 */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else {
        const text = readFileSync(full, 'utf8')
        out[relative(dir, full)] = full.endsWith('.json') ? JSON.stringify(JSON.parse(text)) : text
      }
    }
  }
  walk(dir)
  return out
}

function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

const RULES = '# House rules\n\nUse tabs.\n'

/** Installs, checks idempotence, dry-run and uninstall; `check` looks at the installed files. */
async function roundTrip(t: Test, files: Record<string, string>, args: string[], check: (s: Sandbox) => void): Promise<void> {
  const s = sandbox(files)
  const root = dirname(s.home)
  const before = snapshot(root)

  const dry = await s.run([...args, '--dry-run'])
  t.equal(dry.code, 0, dry.stderr)
  const dryOut = dry.json<{ diff: string; files: Array<{ status: string }> }>()
  t.match(dryOut.diff, /^\+\+\+ /m, 'the dry run prints a diff')
  t.match(dryOut.diff, /brain/)
  t.same(snapshot(root), before, 'a dry run writes nothing')

  const installed = await s.run(args)
  t.equal(installed.code, 0, installed.stderr)
  t.ok(
    installed.json<{ files: Array<{ status: string }> }>().files.every((f) => f.status !== 'unchanged'),
    'each file is written',
  )
  check(s)
  const after = snapshot(root)

  const again = await s.run(args)
  t.equal(again.code, 0)
  t.same(
    again.json<{ files: Array<{ status: string }> }>().files.map((f) => f.status),
    again.json<{ files: Array<{ status: string }> }>().files.map(() => 'unchanged'),
    'a second install changes nothing',
  )
  t.same(snapshot(root), after, 'byte for byte')
  const dryAgain = await s.run([...args, '--dry-run'])
  t.equal(dryAgain.json<{ diff: string }>().diff, '', 'nothing left to diff')

  const removed = await s.run([...args, '--uninstall'])
  t.equal(removed.code, 0, removed.stderr)
  t.same(snapshot(root), before, "uninstall removes brain's entries and only those")
  const removedAgain = await s.run([...args, '--uninstall'])
  t.ok(
    removedAgain.json<{ files: Array<{ status: string }> }>().files.every((f) => f.status === 'unchanged'),
    'a second uninstall changes nothing',
  )
}

const claudeSettings = JSON.stringify(
  {
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'other-memory inject' }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
    },
  },
  null,
  2,
)

t.test('claude-code, project scope: hooks beside other hooks, .mcp.json, CLAUDE.md block', async (t) => {
  await roundTrip(
    t,
    { 'project/.claude/settings.json': `${claudeSettings}\n`, 'project/.mcp.json': '{\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n', 'project/CLAUDE.md': RULES },
    ['claude-code', '--scope', 'project'],
    (s) => {
      const settings = json(join(s.project, '.claude', 'settings.json'))
      const hooks = settings.hooks as Record<string, Array<{ hooks: Array<{ command: string; timeout?: number }> }>>
      t.same(settings.permissions, { allow: ['Bash(npm test)'] }, 'other settings stay')
      t.equal(hooks.UserPromptSubmit![0]!.hooks[0]!.command, 'other-memory inject', "another tool's hook stays first")
      t.equal(hooks.UserPromptSubmit![1]!.hooks[0]!.command, 'brain hook claude-code user-prompt-submit')
      t.equal(hooks.SessionStart![0]!.hooks[0]!.command, 'brain hook claude-code session-start')
      t.equal(hooks.Stop![0]!.hooks[0]!.command, 'brain hook claude-code stop')
      t.equal(hooks.PreCompact![0]!.hooks[0]!.command, 'brain hook claude-code pre-compact')
      t.equal(hooks.PreToolUse![0]!.hooks[0]!.command, 'guard.sh')
      const mcp = json(join(s.project, '.mcp.json')).mcpServers as Record<string, unknown>
      t.same(mcp.github, { command: 'gh-mcp' })
      t.same(mcp.brain, { command: 'brain', args: ['serve'] })
      const rules = readFileSync(join(s.project, 'CLAUDE.md'), 'utf8')
      t.ok(rules.startsWith(RULES), 'the rules file keeps its text')
      t.match(rules, /<!-- brain:begin[^\n]*-->\n## Memory: the brain\n[\s\S]*`recall`[\s\S]*`remember`[\s\S]*<!-- brain:end -->\n$/)
    },
  )
})

t.test('claude-code, user scope: ~/.claude/settings.json and the MCP server in ~/.claude.json', async (t) => {
  const userConfig = JSON.stringify({ numStartups: 12, projects: { '/x': { allowedTools: [] } }, mcpServers: { notes: { command: 'notes-mcp' } } }, null, 2)
  await roundTrip(t, { 'home/.claude.json': `${userConfig}\n`, 'home/.claude/settings.json': `${claudeSettings}\n` }, ['claude-code'], (s) => {
    const config = json(join(s.home, '.claude.json'))
    t.equal(config.numStartups, 12)
    t.same(Object.keys(config.mcpServers as object), ['notes', 'brain'])
    t.ok(existsSync(join(s.home, '.claude', 'CLAUDE.md')))
    t.ok(existsSync(join(s.home, '.claude', 'settings.json')))
    t.notOk(existsSync(join(s.project, '.mcp.json')), 'user scope writes nothing in the project')
  })
})

t.test('codex: [mcp_servers.brain] in config.toml, the rest byte for byte; AGENTS.md block', async (t) => {
  const toml = '# codex\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = [\n  "--port",\n  "[9000]",\n]\n\n[profiles.fast]\nmodel = "gpt-5"\n'
  await roundTrip(t, { 'home/.codex/config.toml': toml, 'home/.codex/AGENTS.md': RULES }, ['codex'], (s) => {
    const text = readFileSync(join(s.home, '.codex', 'config.toml'), 'utf8')
    t.equal(text, `${toml}\n[mcp_servers.brain]\ncommand = "brain"\nargs = ["serve"]\n`)
    t.match(readFileSync(join(s.home, '.codex', 'AGENTS.md'), 'utf8'), /^# House rules[\s\S]*<!-- brain:end -->\n$/)
  })
  await roundTrip(t, { 'project/.codex/config.toml': toml }, ['codex', '--scope', 'project'], (s) => {
    t.match(readFileSync(join(s.project, '.codex', 'config.toml'), 'utf8'), /\[mcp_servers\.brain\]/)
    t.ok(existsSync(join(s.project, 'AGENTS.md')))
  })
})

t.test('cursor: .cursor/mcp.json beside other servers, and a rule file of its own', async (t) => {
  await roundTrip(
    t,
    {
      'project/.cursor/mcp.json': '{\n  "mcpServers": {\n    "linear": { "url": "https://mcp.linear.app/sse" }\n  }\n}\n',
      'project/.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nUse tabs.\n',
    },
    ['cursor', '--scope', 'project'],
    (s) => {
      const servers = json(join(s.project, '.cursor', 'mcp.json')).mcpServers as Record<string, unknown>
      t.same(Object.keys(servers), ['linear', 'brain'])
      t.match(readFileSync(join(s.project, '.cursor', 'rules', 'brain.mdc'), 'utf8'), /^---\ndescription: [^\n]+\nalwaysApply: true\n---\n\n<!-- brain:begin/)
    },
  )
  await roundTrip(t, {}, ['cursor'], (s) => {
    t.same(json(join(s.home, '.cursor', 'mcp.json')), { mcpServers: { brain: { command: 'brain', args: ['serve'] } } })
  })
})

t.test('gemini-cli: mcpServers and hooks in settings.json, GEMINI.md block', async (t) => {
  const settings = JSON.stringify(
    { theme: 'GitHub', mcpServers: { web: { httpUrl: 'https://x/mcp' } }, hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'audit.sh' }] }] } },
    null,
    2,
  )
  await roundTrip(t, { 'project/.gemini/settings.json': `${settings}\n`, 'project/GEMINI.md': RULES }, ['gemini-cli', '--scope', 'project'], (s) => {
    const value = json(join(s.project, '.gemini', 'settings.json'))
    const hooks = value.hooks as Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>
    t.equal(value.theme, 'GitHub')
    t.same(Object.keys(value.mcpServers as object), ['web', 'brain'])
    t.equal(hooks.BeforeTool![0]!.hooks[0]!.command, 'audit.sh')
    t.equal(hooks.BeforeAgent![0]!.hooks[0]!.command, 'brain hook gemini-cli user-prompt-submit')
    t.equal(hooks.SessionStart![0]!.hooks[0]!.timeout, 10000, 'Gemini CLI counts hook timeouts in milliseconds')
  })
})

t.test('opencode: the mcp entry in opencode.json, AGENTS.md block', async (t) => {
  const config = JSON.stringify({ $schema: 'https://opencode.ai/config.json', model: 'anthropic/claude', mcp: { jira: { type: 'remote', url: 'https://jira/mcp' } } }, null, 2)
  await roundTrip(t, { 'project/opencode.json': `${config}\n`, 'project/AGENTS.md': RULES }, ['opencode', '--scope', 'project'], (s) => {
    const mcp = json(join(s.project, 'opencode.json')).mcp as Record<string, unknown>
    t.same(mcp.brain, { type: 'local', command: ['brain', 'serve'], enabled: true })
    t.same(Object.keys(mcp), ['jira', 'brain'])
  })
  await roundTrip(t, {}, ['opencode'], (s) => {
    t.ok(existsSync(join(s.home, '.config', 'opencode', 'opencode.json')), 'user scope: XDG config home')
    t.ok(existsSync(join(s.home, '.config', 'opencode', 'AGENTS.md')))
  })
})

t.test('a non-default brain home is carried into the hooks and the server entries', async (t) => {
  const s = sandbox({})
  const brainHome = join(s.home, 'my brain')
  const res = await runBrain(['agents', 'install', 'claude-code', '--scope', 'project', '--json'], { ...s.env, BRAIN_HOME: brainHome }, undefined, s.project)
  t.equal(res.code, 0, res.stderr)
  const hooks = json(join(s.project, '.claude', 'settings.json')).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>
  t.equal(hooks.Stop![0]!.hooks[0]!.command, `BRAIN_HOME='${brainHome}' brain hook claude-code stop`)
  t.same((json(join(s.project, '.mcp.json')).mcpServers as Record<string, unknown>).brain, { command: 'brain', args: ['serve'], env: { BRAIN_HOME: brainHome } })
  const again = await runBrain(['agents', 'install', 'claude-code', '--scope', 'project', '--json'], { ...s.env, BRAIN_HOME: brainHome }, undefined, s.project)
  t.ok(
    again.json<{ files: Array<{ status: string }> }>().files.every((f) => f.status === 'unchanged'),
    'its own quoted hooks are recognised',
  )
})

t.test('refusals: an unknown agent, a bad scope, a config with comments', async (t) => {
  const s = sandbox({ 'project/.mcp.json': '{\n  // mine\n  "mcpServers": {}\n}\n' })
  const unknown = await s.run(['vim'])
  t.equal(unknown.code, 1)
  t.match(unknown.json(), { error: { class: 'UsageError', code: 'unknown_agent' } })
  const scope = await s.run(['codex', '--scope', 'global'])
  t.match(scope.json(), { error: { code: 'invalid_scope' } })
  const comments = await s.run(['claude-code', '--scope', 'project'])
  t.equal(comments.code, 1)
  t.match(comments.json(), { error: { class: 'ConfigError', code: 'agent_config_unreadable' } })
  t.equal(readFileSync(join(s.project, '.mcp.json'), 'utf8'), '{\n  // mine\n  "mcpServers": {}\n}\n', 'the file is left alone')
})
