/**
 * Which files each coding agent reads, and brain's entries in them: the MCP server, the hooks
 * where the agent has hooks brain answers, the instructions block in its rules file, and (with
 * `--trust`) the trust or approval a project needs. Project files that are committed get only the
 * shared form of an entry; this machine's command goes to the client's local settings where it
 * has them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../errors/index.js'
import { SERVER_NAME, hookCommand, serverEntry, type FileTarget, type TargetOptions } from './entries.js'
import { setFlatHooks, setHooks, type HookSetting } from './hooks-json.js'
import { dropIfEmpty, formatJson, holdsValue, isObject, objectAt, parseJsonConfig } from './json-config.js'
import { BLOCK_BEGIN, editRulesBlock, instructions } from './rules-block.js'
import { editTomlTable, tomlString } from './toml-table.js'
import { agentFiles } from './agent-files.js'
import { claudeTrustTarget, codexTrustTarget, geminiTrustTarget, setApproval } from './trust.js'

export { type FileTarget, type Scope, type TargetOptions } from './entries.js'

export const AGENTS = ['claude-code', 'codex', 'cursor', 'gemini-cli', 'opencode'] as const
export type AgentName = (typeof AGENTS)[number]

/** Seconds for Claude Code and Codex, milliseconds for Gemini CLI: each waits this long at most for a hook. */
const HOOK_TIMEOUT_S = 10

/**
 * Edits a JSON file's object, writing it back only when something changed. An uninstall that
 * leaves the value brain first found gives back the file's original bytes; one that leaves only
 * `scaffold` keys in a file brain created removes the file.
 */
function jsonTarget(path: string, holds: string, change: (value: Record<string, unknown>, uninstall: boolean) => void, scaffold: readonly string[] = []): FileTarget {
  const entries = (): string => {
    const sample: Record<string, unknown> = {}
    change(sample, false)
    return JSON.stringify(sample)
  }
  return {
    path,
    holds,
    edit(text, uninstall, original) {
      const doc = parseJsonConfig(path, text, entries)
      const before = JSON.stringify(doc.value)
      change(doc.value, uninstall)
      if (JSON.stringify(doc.value) === before) return text
      if (uninstall) {
        if (typeof original === 'string' && holdsValue(original, doc.value)) return original
        // A file brain created goes again; one it found stays, however little is left in it.
        const keys = Object.keys(doc.value)
        if (original === null ? keys.every((k) => scaffold.includes(k)) : original === undefined && keys.length === 0) return null
      }
      return formatJson(doc)
    },
  }
}

function setServer(path: string, value: Record<string, unknown>, key: string, entry: Record<string, unknown>, uninstall: boolean): void {
  const servers = objectAt(path, value, key)
  if (uninstall) delete servers[SERVER_NAME]
  else servers[SERVER_NAME] = entry
  dropIfEmpty(value, key)
}

function hooksOf(o: TargetOptions, harness: string, shared: boolean, timeout: number): HookSetting {
  return { harness, timeout, command: (event) => hookCommand(o, harness, event, shared) }
}

function hasBlock(path: string | undefined): boolean {
  if (path === undefined || !existsSync(path)) return false
  return readFileSync(path, 'utf8').includes(BLOCK_BEGIN)
}

interface RulesOptions {
  /** The agent's user-scope rules file: a project install adds no second block when it has one. */
  userFile?: string
  /** Another agent installed in the project reads the same file: an uninstall keeps the block. */
  sharedWith?: () => boolean
}

function rulesTarget(path: string, hooked: boolean, options: RulesOptions = {}): FileTarget {
  return {
    path,
    holds: 'instructions block',
    edit(text, uninstall) {
      if (uninstall && options.sharedWith?.() === true) return text
      const once = !uninstall && hasBlock(options.userFile)
      const next = editRulesBlock(text, uninstall || once ? null : instructions(hooked))
      if (next === (text ?? '')) return text
      return next.trim() === '' ? null : next
    },
  }
}

/** Each agent's MCP entry in its project file: whether brain is installed in the project. */
const PROJECT_SERVER_KEYS: Partial<Record<AgentName, readonly string[]>> = {
  'claude-code': ['mcpServers', SERVER_NAME],
  codex: ['mcp_servers', SERVER_NAME],
  'gemini-cli': ['mcpServers', SERVER_NAME],
  opencode: ['mcp', SERVER_NAME],
}

function installedInProject(agent: AgentName, o: TargetOptions): boolean {
  const keys = PROJECT_SERVER_KEYS[agent]
  return keys !== undefined && holdsServer(agentFiles(agent, 'project', o.project, o.dirs).server, keys)
}

/**
 * A user-scope install's edit of the project's rules file, so that an agent with brain in both
 * scopes reads the block once, whichever scope came first: the block is the user file's while
 * user scope is installed, and goes back to the project's file when user scope is uninstalled.
 * It stays in the project while another agent installed there reads the same file without a
 * user block of its own (Codex and opencode share AGENTS.md).
 */
function projectRulesTarget(agent: AgentName, o: TargetOptions, hooked: boolean): FileTarget[] {
  const path = agentFiles(agent, 'project', o.project, o.dirs).rules
  if (path === undefined || !installedInProject(agent, o)) return []
  return [
    {
      path,
      holds: 'instructions block (project, once with user scope)',
      edit(text, uninstall) {
        if (uninstall) return text !== null && text.includes(BLOCK_BEGIN) ? text : editRulesBlock(text, instructions(hooked))
        const readers = AGENTS.filter((a) => a !== agent && agentFiles(a, 'project', o.project, o.dirs).rules === path && installedInProject(a, o))
        if (text === null || readers.some((a) => !hasBlock(agentFiles(a, 'user', o.project, o.dirs).rules))) return text
        const next = editRulesBlock(text, null)
        if (next === text) return text
        return next.trim() === '' ? null : next
      },
    },
  ]
}

/** A file of brain's own (a Cursor rule): written whole, deleted on uninstall if it is still brain's. */
function ownedFileTarget(path: string, content: string): FileTarget {
  return {
    path,
    holds: 'rule file',
    edit(text, uninstall) {
      if (uninstall) return text !== null && text.includes(BLOCK_BEGIN) ? null : text
      if (text !== null && !text.includes(BLOCK_BEGIN)) {
        throw new ConfigError('agent_config_conflict', `${path} exists and is not brain's.`, { hint: 'Move it aside, then run the install again.' })
      }
      return content
    },
  }
}

function tomlServerTarget(path: string, o: TargetOptions, shared: boolean): FileTarget {
  const entry = serverEntry(o, shared)
  const env = entry.env
    ? [
        `env = { ${Object.entries(entry.env)
          .map(([k, v]) => `${k} = ${tomlString(v)}`)
          .join(', ')} }`,
      ]
    : []
  const table = [`[mcp_servers.${SERVER_NAME}]`, `command = ${tomlString(entry.command)}`, `args = [${entry.args.map(tomlString).join(', ')}]`, ...env].join('\n')
  return {
    path,
    holds: 'MCP server',
    edit(text, uninstall) {
      const edited = editTomlTable(path, text, ['mcp_servers', SERVER_NAME], uninstall ? null : table)
      if (!edited.changed) return text
      return edited.text.trim() === '' ? null : edited.text
    },
  }
}

/** Whether another agent's MCP entry is in a file (JSON key path, or a TOML table). */
function holdsServer(path: string, keys: readonly string[]): boolean {
  if (!existsSync(path)) return false
  const text = readFileSync(path, 'utf8')
  if (path.endsWith('.toml')) return new RegExp(`^\\s*\\[\\s*${keys.join('\\s*\\.\\s*')}\\s*\\]`, 'm').test(text)
  try {
    let value: unknown = JSON.parse(text)
    for (const key of keys) value = isObject(value) ? value[key] : undefined
    return value !== undefined
  } catch {
    return false
  }
}

function claudeCode(o: TargetOptions): FileTarget[] {
  const files = agentFiles('claude-code', o.scope, o.project, o.dirs)
  if (o.scope === 'user') {
    return [
      jsonTarget(files.hooks!, 'hooks', (v, u) => setHooks(files.hooks!, v, 'claude-code', u ? null : hooksOf(o, 'claude-code', false, HOOK_TIMEOUT_S))),
      jsonTarget(files.server, 'MCP server', (v, u) => setServer(files.server, v, 'mcpServers', { ...serverEntry(o, false) }, u)),
      rulesTarget(files.rules!, true),
      ...projectRulesTarget('claude-code', o, true),
    ]
  }
  // The shared settings file held the hooks before they moved to the local one: take them out.
  const shared = join(o.project, '.claude', 'settings.json')
  return [
    jsonTarget(files.hooks!, 'hooks (local settings)', (v, u) => {
      setHooks(files.hooks!, v, 'claude-code', u ? null : hooksOf(o, 'claude-code', false, HOOK_TIMEOUT_S))
      setApproval(files.hooks!, v, u ? 'remove' : o.trust ? 'add' : 'keep')
    }),
    ...(existsSync(shared) && readFileSync(shared, 'utf8').includes('hook claude-code')
      ? [jsonTarget(shared, 'no hooks (moved to local settings)', (v) => setHooks(shared, v, 'claude-code', null))]
      : []),
    jsonTarget(files.server, 'MCP server (shared)', (v, u) => setServer(files.server, v, 'mcpServers', { ...serverEntry(o, true) }, u)),
    rulesTarget(files.rules!, true, { userFile: agentFiles('claude-code', 'user', o.project, o.dirs).rules }),
    ...(o.trust ? [claudeTrustTarget(o)] : []),
  ]
}

function codex(o: TargetOptions): FileTarget[] {
  const files = agentFiles('codex', o.scope, o.project, o.dirs)
  const shared = o.scope === 'project'
  const opencode = agentFiles('opencode', 'project', o.project, o.dirs).server
  return [
    tomlServerTarget(files.server, o, shared),
    jsonTarget(files.hooks!, shared ? 'hooks (shared)' : 'hooks', (v, u) => setHooks(files.hooks!, v, 'codex', u ? null : hooksOf(o, 'codex', shared, HOOK_TIMEOUT_S))),
    rulesTarget(files.rules!, false, shared ? { userFile: agentFiles('codex', 'user', o.project, o.dirs).rules, sharedWith: () => holdsServer(opencode, ['mcp', SERVER_NAME]) } : {}),
    ...(shared ? [] : projectRulesTarget('codex', o, false)),
    ...(shared && o.trust ? [codexTrustTarget(o)] : []),
  ]
}

function cursor(o: TargetOptions): FileTarget[] {
  const files = agentFiles('cursor', o.scope, o.project, o.dirs)
  const shared = o.scope === 'project'
  const targets = [
    jsonTarget(files.server, shared ? 'MCP server (shared)' : 'MCP server', (v, u) => setServer(files.server, v, 'mcpServers', { ...serverEntry(o, shared) }, u)),
    // Cursor's prompt hook may only let a prompt through or stop it: the session start orients
    // and the stop captures; recall on each turn is the model's call of the recall tool.
    jsonTarget(files.hooks!, shared ? 'hooks (shared)' : 'hooks', (v, u) => setFlatHooks(files.hooks!, v, 'cursor', u ? null : hooksOf(o, 'cursor', shared, HOOK_TIMEOUT_S)), ['version']),
  ]
  // Cursor's user rules live in its settings, not in a file: only a project gets the rule.
  if (files.rules !== undefined) {
    const rule = `---\ndescription: When to recall from and remember to the user's brain\nalwaysApply: true\n---\n\n${editRulesBlock(null, instructions(false))}`
    targets.push(ownedFileTarget(files.rules, rule))
  }
  return targets
}

function geminiCli(o: TargetOptions): FileTarget[] {
  const files = agentFiles('gemini-cli', o.scope, o.project, o.dirs)
  const shared = o.scope === 'project'
  return [
    jsonTarget(files.server, shared ? 'MCP server and hooks (shared)' : 'MCP server and hooks', (v, u) => {
      setServer(files.server, v, 'mcpServers', { ...serverEntry(o, shared) }, u)
      setHooks(files.server, v, 'gemini-cli', u ? null : hooksOf(o, 'gemini-cli', shared, HOOK_TIMEOUT_S * 1000))
    }),
    rulesTarget(files.rules!, true, shared ? { userFile: agentFiles('gemini-cli', 'user', o.project, o.dirs).rules } : {}),
    ...(shared ? [] : projectRulesTarget('gemini-cli', o, true)),
    // Gemini CLI starts no MCP server in an untrusted folder, not even one of the user's own.
    ...(o.trust ? [geminiTrustTarget(o)] : []),
  ]
}

function opencode(o: TargetOptions): FileTarget[] {
  const files = agentFiles('opencode', o.scope, o.project, o.dirs)
  const shared = o.scope === 'project'
  const entry = serverEntry(o, shared)
  const server = { type: 'local', command: [entry.command, ...entry.args], enabled: true, ...(entry.env ? { environment: entry.env } : {}) }
  const codexConfig = agentFiles('codex', 'project', o.project, o.dirs).server
  return [
    jsonTarget(
      files.server,
      shared ? 'MCP server (shared)' : 'MCP server',
      (v, u) => {
        if (!u && Object.keys(v).length === 0) v.$schema = 'https://opencode.ai/config.json'
        setServer(files.server, v, 'mcp', server, u)
      },
      ['$schema'],
    ),
    rulesTarget(files.rules!, false, shared ? { userFile: agentFiles('opencode', 'user', o.project, o.dirs).rules, sharedWith: () => holdsServer(codexConfig, ['mcp_servers', SERVER_NAME]) } : {}),
    ...(shared ? [] : projectRulesTarget('opencode', o, false)),
  ]
}

const BUILDERS: Record<AgentName, (o: TargetOptions) => FileTarget[]> = { 'claude-code': claudeCode, codex, cursor, 'gemini-cli': geminiCli, opencode }

export function agentTargets(agent: AgentName, options: TargetOptions): FileTarget[] {
  return BUILDERS[agent](options)
}

export function isAgentName(value: string): value is AgentName {
  return (AGENTS as readonly string[]).includes(value)
}
