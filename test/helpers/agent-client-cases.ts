/**
 * For each real coding agent: the files its user already has (other entries brain must keep,
 * and the consent the agent asks of its user before it runs a folder's or a server's config),
 * and the agent's own commands that must show brain, with what each has to print.
 */
import { join } from 'node:path'
import type { AgentName, Scope } from '../../src/agents/index.js'
import type { ClientName, ClientRun, ClientSandbox } from './agent-clients.js'

/** What an agent's own commands must show of brain after an install. */
export interface Expected {
  scope: Scope
  /** The server entry's argv: the launcher in a personal file, the launcher lookup in a shared one. */
  argv: readonly string[]
  /** The BRAIN_HOME the agents run with, which Gemini CLI puts in for `${BRAIN_HOME:-…}` itself. */
  brainHome: string
}

export interface ClientCheck {
  args: string[]
  /** Why the output is wrong, or null when it shows brain as the check wants. */
  problem(run: ClientRun, expected: Expected): string | null
}

export interface ClientCase {
  client: ClientName
  agent: AgentName
  /**
   * Absolute path → text of the files there before brain is installed: other entries brain must
   * keep, and none of the consent the agent asks of its user, which the install writes.
   */
  files(sandbox: ClientSandbox, scope: Scope): Record<string, string>
  /** Whether the install is run with `--trust`: where brain writes consent this agent needs. */
  trusts(scope: Scope): boolean
  checks: ClientCheck[]
}

const RULES = '# House rules\n\nUse tabs.\n'

/** JSON as brain writes it back (two-space indent, final newline), so an uninstall can give back the same bytes. */
function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

function plain(text: string): string {
  return text.replace(COLOUR, '')
}

function output(run: ClientRun): string {
  return plain(`${run.stdout}\n${run.stderr}`)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Matches stdout and stderr together: Gemini CLI prints its server list on stderr. */
function expect(pattern: (expected: Expected) => RegExp, what: string): ClientCheck['problem'] {
  return (run, expected) => (run.code === 0 && pattern(expected).test(output(run)) ? null : `${what}: exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`)
}

/** Gemini CLI's own settings: an API key login, and no usage statistics or update checks sent out. */
export const GEMINI_USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
}

export const CLIENT_CASES: readonly ClientCase[] = [
  {
    client: 'claude',
    agent: 'claude-code',
    files: ({ home, project }, scope) => ({
      [join(home, '.claude.json')]: json({ numStartups: 3, projects: { '/srv/other': { hasTrustDialogAccepted: true } } }),
      [join(home, '.claude', 'settings.json')]: json({ permissions: { allow: ['Bash(ls:*)'] } }),
      [join(home, '.claude', 'CLAUDE.md')]: RULES,
      ...(scope === 'project' ? { [join(project, '.claude', 'settings.local.json')]: json({ permissions: { allow: ['Bash(npm test)'] } }), [join(project, 'CLAUDE.md')]: RULES } : {}),
    }),
    // A project's .mcp.json server runs once approved, in a folder whose trust dialog was accepted.
    trusts: (scope) => scope === 'project',
    checks: [
      { args: ['mcp', 'list'], problem: expect(({ argv }) => new RegExp(`^brain: ${escape(argv.join(' '))} - \\S* ?Connected$`, 'm'), 'claude mcp list does not show brain connected') },
      {
        args: ['mcp', 'get', 'brain'],
        problem: expect(({ scope }) => new RegExp(`Scope: ${scope === 'user' ? 'User config' : 'Project config'}[^]*Status: \\S* ?Connected`), 'claude mcp get brain does not show it connected'),
      },
    ],
  },
  {
    client: 'codex',
    agent: 'codex',
    files: ({ home, project }, scope) => ({
      [join(home, '.codex', 'config.toml')]: 'model = "gpt-5"\n',
      [join(home, '.codex', 'AGENTS.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'AGENTS.md')]: RULES } : {}),
    }),
    // Codex reads a project's .codex/config.toml only in a project its user trusts.
    trusts: (scope) => scope === 'project',
    checks: [
      { args: ['mcp', 'list'], problem: expect(() => /^brain\s+\S+\s.*\bserve --tools memory\b.*\benabled\b/m, 'codex mcp list does not show brain enabled') },
      {
        args: ['mcp', 'get', 'brain', '--json'],
        problem: (run, { argv }) => {
          try {
            const got = JSON.parse(run.stdout) as { name?: string; enabled?: boolean; transport?: { type?: string; command?: string; args?: string[] } }
            const served = [got.transport?.command, ...(got.transport?.args ?? [])]
            const ok = got.name === 'brain' && got.enabled === true && got.transport?.type === 'stdio' && JSON.stringify(served) === JSON.stringify(argv)
            return ok ? null : `codex mcp get brain --json: ${run.stdout}`
          } catch {
            return `codex mcp get brain --json is not JSON: exit ${run.code}\n${run.stdout}\n${run.stderr}`
          }
        },
      },
    ],
  },
  {
    client: 'gemini',
    agent: 'gemini-cli',
    files: ({ home, project }, scope) => ({
      [join(home, '.gemini', 'settings.json')]: json(GEMINI_USER_SETTINGS),
      [join(home, '.gemini', 'trustedFolders.json')]: json({ '/srv/other': 'TRUST_FOLDER' }),
      [join(home, '.gemini', 'GEMINI.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'GEMINI.md')]: RULES } : {}),
    }),
    // Gemini CLI connects no MCP server, not even a user's own, in a folder its user has not trusted.
    trusts: () => true,
    checks: [
      {
        args: ['mcp', 'list'],
        problem: expect(
          ({ argv, brainHome }) => new RegExp(`brain: ${escape(argv.join(' ').replace('${BRAIN_HOME:-$HOME/.brain}', brainHome))} \\(stdio\\) - Connected`),
          'gemini mcp list does not show brain connected',
        ),
      },
    ],
  },
  {
    client: 'opencode',
    agent: 'opencode',
    files: ({ home, project }, scope) => ({
      [join(home, '.config', 'opencode', 'opencode.json')]: json({ $schema: 'https://opencode.ai/config.json', autoupdate: false }),
      [join(home, '.config', 'opencode', 'AGENTS.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'AGENTS.md')]: RULES } : {}),
    }),
    trusts: () => false,
    checks: [
      {
        args: ['mcp', 'list'],
        problem: expect(({ argv }) => new RegExp(`✓ brain\\s+connected\\s*\\n\\W*${escape(argv.join(' '))}\\s*$`, 'm'), 'opencode mcp list does not show brain connected'),
      },
    ],
  },
]
