/**
 * Where brain is installed on this machine, read back from the agents' own files: which agents
 * have brain's MCP server (user scope, and the project scope of a directory), the command each
 * starts, and what its client still needs before it uses a project's entries (an approval, a
 * trusted folder). `brain doctor` and the install's closing notes read it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { AgentDirs } from '../config/index.js'
import { agentFiles } from './agent-files.js'
import { SERVER_NAME, type Scope } from './entries.js'
import { isObject } from './json-config.js'
import { AGENTS, type AgentName } from './targets.js'
import { readTomlTable, tomlValue } from './toml-table.js'
import { CODEX_TRUSTED, claudeTrustFile, codexTrustFile, geminiTrustFile } from './trust.js'

export interface InstalledAgent {
  agent: AgentName
  scope: Scope
  /** The file that holds brain's server entry. */
  file: string
  /** The command the entry starts, up to its `serve` (null when brain cannot tell). */
  command: string[] | null
  env: Record<string, string>
  /** What the user still has to do in the client before it uses brain (empty: nothing). */
  pending: string[]
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

function at(value: unknown, ...keys: string[]): unknown {
  for (const key of keys) value = isObject(value) ? value[key] : undefined
  return value
}

function strings(value: unknown): Record<string, string> {
  if (!isObject(value)) return {}
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
}

/** `[command, ...args]` cut before `serve`: what starts brain. */
function upToServe(argv: unknown[]): string[] | null {
  if (!argv.every((a): a is string => typeof a === 'string')) return null
  const serve = argv.indexOf('serve')
  return serve > 0 ? argv.slice(0, serve) : null
}

function serverOf(agent: AgentName, file: string): { command: string[] | null; env: Record<string, string> } | null {
  if (!existsSync(file)) return null
  if (agent === 'codex') {
    const table = readTomlTable(readFileSync(file, 'utf8'), ['mcp_servers', SERVER_NAME])
    if (table === null) return null
    const command = tomlValue(table, 'command')
    const args = tomlValue(table, 'args')
    return { command: typeof command === 'string' && Array.isArray(args) ? upToServe([command, ...(args as unknown[])]) : null, env: {} }
  }
  const entry = agent === 'opencode' ? at(readJson(file), 'mcp', SERVER_NAME) : at(readJson(file), 'mcpServers', SERVER_NAME)
  if (!isObject(entry)) return null
  if (agent === 'opencode') return { command: Array.isArray(entry.command) ? upToServe(entry.command) : null, env: strings(entry.environment) }
  const args = Array.isArray(entry.args) ? (entry.args as unknown[]) : []
  return { command: typeof entry.command === 'string' ? upToServe([entry.command, ...args]) : null, env: strings(entry.env) }
}

function claudeApproved(project: string): boolean {
  return ['settings.local.json', 'settings.json'].some((name) => {
    const settings = readJson(join(project, '.claude', name))
    const list = at(settings, 'enabledMcpjsonServers')
    return at(settings, 'enableAllProjectMcpServers') === true || (Array.isArray(list) && list.includes(SERVER_NAME))
  })
}

/** The project and its parents, nearest first: each client's trust of a folder covers the folders in it. */
function selfAndParents(project: string): string[] {
  const dirs = [project]
  while (dirname(dirs.at(-1)!) !== dirs.at(-1)) dirs.push(dirname(dirs.at(-1)!))
  return dirs
}

/** Whether Claude Code's trust dialog was accepted for the project or a folder it is in. */
function claudeTrusted(project: string, dirs: AgentDirs): boolean {
  const projects = at(readJson(claudeTrustFile({ dirs })), 'projects')
  return selfAndParents(project).some((dir) => at(projects, dir, 'hasTrustDialogAccepted') === true)
}

function codexTrusted(project: string, dirs: AgentDirs): boolean {
  const file = codexTrustFile({ dirs })
  if (!existsSync(file)) return false
  const text = readFileSync(file, 'utf8')
  return selfAndParents(project).some((dir) => readTomlTable(text, ['projects', dir])?.includes(CODEX_TRUSTED) === true)
}

/** Whether Gemini CLI trusts the folder, or asks nothing because its user turned folder trust off. */
function geminiTrusted(project: string, dirs: AgentDirs): boolean {
  if (at(readJson(agentFiles('gemini-cli', 'user', project, dirs).server), 'security', 'folderTrust', 'enabled') === false) return true
  const folders = readJson(geminiTrustFile({ dirs }))
  if (!isObject(folders)) return false
  if (folders[project] === 'TRUST_FOLDER' || folders[dirname(project)] === 'TRUST_PARENT') return true
  for (let dir = dirname(project); dirname(dir) !== dir; dir = dirname(dir)) if (folders[dir] === 'TRUST_FOLDER') return true
  return false
}

/**
 * Whether git would commit Claude Code's local settings, which hold this machine's launcher path:
 * false outside a git work tree or without git.
 */
function localSettingsTracked(project: string): boolean {
  if (!existsSync(join(project, '.claude', 'settings.local.json'))) return false
  try {
    execFileSync('git', ['check-ignore', '-q', join('.claude', 'settings.local.json')], { cwd: project, stdio: 'ignore' })
    return false
  } catch (err) {
    // Exit 1: not ignored; 128 (not a repository) or no git at all: nothing to commit it to.
    return (err as { status?: number | null }).status === 1
  }
}

/**
 * What an install still needs from the user in the client before it uses brain in `project` (for
 * user scope, the folder the agent runs in); `--trust` writes what has a file.
 */
export function pendingSteps(agent: AgentName, scope: Scope, project: string, dirs: AgentDirs): string[] {
  if (scope === 'user') {
    if (agent !== 'gemini-cli' || geminiTrusted(project, dirs)) return []
    return [
      `Gemini CLI: starts no MCP server, not even brain from user scope, in a folder it does not trust: trust ${project} and each folder you run it in when it asks, or run \`brain agents install gemini-cli --trust --project <folder>\` (${geminiTrustFile({ dirs })}).`,
    ]
  }
  const trust = `or run \`brain agents install ${agent} --scope project --trust\``
  switch (agent) {
    case 'claude-code': {
      const approved = claudeApproved(project)
      const trusted = claudeTrusted(project, dirs)
      const asks = [...(trusted ? [] : ["accept the folder's trust dialog"]), ...(approved ? [] : ['approve the project MCP server "brain" (.mcp.json)'])]
      const files = [...(trusted ? [] : [`hasTrustDialogAccepted in ${claudeTrustFile({ dirs })}`]), ...(approved ? [] : ['enabledMcpjsonServers in .claude/settings.local.json'])]
      return [
        ...(asks.length === 0 ? [] : [`Claude Code: ${asks.join(' and ')} when it asks, ${trust} (${files.join(', ')}).`]),
        ...(localSettingsTracked(project) ? ['git: add .claude/settings.local.json to .gitignore; it holds paths of this machine.'] : []),
      ]
    }
    case 'codex':
      return codexTrusted(project, dirs)
        ? []
        : [`Codex: reads .codex/config.toml and .codex/hooks.json only in a trusted project: trust ${project} when Codex asks, ${trust} (trust_level = "trusted" in ${codexTrustFile({ dirs })}).`]
    case 'gemini-cli':
      return geminiTrusted(project, dirs)
        ? []
        : [`Gemini CLI: with folder trust on, reads .gemini/settings.json only in a trusted folder: trust ${project} when it asks, ${trust} (${geminiTrustFile({ dirs })}).`]
    case 'cursor':
      return ['Cursor: turn on the project MCP server "brain" in Cursor Settings → MCP (Cursor keeps that choice in its own settings, not in a file brain writes).']
    default:
      return []
  }
}

/** The agents with brain's server entry: user scope, then the project scope of `project`. */
export function installedAgents(project: string, dirs: AgentDirs): InstalledAgent[] {
  const found: InstalledAgent[] = []
  for (const scope of ['user', 'project'] as const) {
    for (const agent of AGENTS) {
      const file = agentFiles(agent, scope, project, dirs).server
      const server = serverOf(agent, file)
      if (server !== null) found.push({ agent, scope, file, ...server, pending: pendingSteps(agent, scope, project, dirs) })
    }
  }
  return found
}
