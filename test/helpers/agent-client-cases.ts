/**
 * For each real coding agent: the files its user already has (other entries brain must keep,
 * and the consent the agent asks of its user before it runs a folder's or a server's config),
 * and the agent's own commands that must show brain, with what each has to print.
 */
import { join } from 'node:path'
import type { AgentName, Scope } from '../../src/agents/index.js'
import type { ClientName, ClientRun, ClientSandbox } from './agent-clients.js'

export interface ClientCheck {
  args: string[]
  /** Why the output is wrong, or null when it shows brain as the check wants. */
  problem(run: ClientRun, scope: Scope): string | null
}

export interface ClientCase {
  client: ClientName
  agent: AgentName
  /** Absolute path → text of the files there before brain is installed. */
  files(sandbox: ClientSandbox, scope: Scope): Record<string, string>
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

/** Matches stdout and stderr together: Gemini CLI prints its server list on stderr. */
function expect(pattern: RegExp, what: string): ClientCheck['problem'] {
  return (run) => (run.code === 0 && pattern.test(plain(`${run.stdout}\n${run.stderr}`)) ? null : `${what}: exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`)
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
      // The user accepted the folder's trust dialog, and (project scope) approved the project's
      // .mcp.json server brain, the way Claude Code records both when asked interactively.
      [join(home, '.claude.json')]: json({ numStartups: 3, projects: { [project]: { hasTrustDialogAccepted: true } } }),
      [join(home, '.claude', 'settings.json')]: json({ permissions: { allow: ['Bash(ls:*)'] } }),
      [join(home, '.claude', 'CLAUDE.md')]: RULES,
      ...(scope === 'project' ? { [join(project, '.claude', 'settings.local.json')]: json({ enabledMcpjsonServers: ['brain'] }), [join(project, 'CLAUDE.md')]: RULES } : {}),
    }),
    checks: [
      { args: ['mcp', 'list'], problem: expect(/^brain: brain serve - \S* ?Connected$/m, 'claude mcp list does not show brain connected') },
      {
        args: ['mcp', 'get', 'brain'],
        problem: (run, scope) =>
          expect(new RegExp(`Scope: ${scope === 'user' ? 'User config' : 'Project config'}[^]*Status: \\S* ?Connected`), 'claude mcp get brain does not show it connected')(run, scope),
      },
    ],
  },
  {
    client: 'codex',
    agent: 'codex',
    files: ({ home, project }, scope) => ({
      // Codex reads a project's .codex/config.toml only in a project its user trusts.
      [join(home, '.codex', 'config.toml')]: `model = "gpt-5"\n\n[projects."${project}"]\ntrust_level = "trusted"\n`,
      [join(home, '.codex', 'AGENTS.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'AGENTS.md')]: RULES } : {}),
    }),
    checks: [
      { args: ['mcp', 'list'], problem: expect(/^brain\s+brain\s+serve\s.*\benabled\b/m, 'codex mcp list does not show brain enabled') },
      {
        args: ['mcp', 'get', 'brain', '--json'],
        problem: (run) => {
          try {
            const got = JSON.parse(run.stdout) as { name?: string; enabled?: boolean; transport?: { type?: string; command?: string; args?: string[] } }
            const ok = got.name === 'brain' && got.enabled === true && got.transport?.type === 'stdio' && got.transport.command === 'brain' && got.transport.args?.join(' ') === 'serve'
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
      // Gemini CLI connects no MCP server, not even a user's own, in a folder its user has not trusted.
      [join(home, '.gemini', 'trustedFolders.json')]: json({ [project]: 'TRUST_FOLDER' }),
      [join(home, '.gemini', 'GEMINI.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'GEMINI.md')]: RULES } : {}),
    }),
    checks: [{ args: ['mcp', 'list'], problem: expect(/brain: brain serve \(stdio\) - Connected/, 'gemini mcp list does not show brain connected') }],
  },
  {
    client: 'opencode',
    agent: 'opencode',
    files: ({ home, project }, scope) => ({
      [join(home, '.config', 'opencode', 'opencode.json')]: json({ $schema: 'https://opencode.ai/config.json', autoupdate: false }),
      [join(home, '.config', 'opencode', 'AGENTS.md')]: RULES,
      ...(scope === 'project' ? { [join(project, 'AGENTS.md')]: RULES } : {}),
    }),
    checks: [{ args: ['mcp', 'list'], problem: expect(/✓ brain\s+connected/, 'opencode mcp list does not show brain connected') }],
  },
]
