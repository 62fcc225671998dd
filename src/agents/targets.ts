/**
 * Which files each coding agent reads, and brain's entries in them: the MCP server, the hooks
 * where the agent has hooks brain answers, and the instructions block in its rules file.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentDirs } from '../config/index.js'
import { ConfigError } from '../errors/index.js'
import { hookEvents } from './hook-events.js'
import { dropIfEmpty, formatJson, isObject, objectAt, parseJsonConfig } from './json-config.js'
import { BLOCK_BEGIN, editRulesBlock, instructions } from './rules-block.js'
import { editTomlTable, tomlString } from './toml-table.js'

export const AGENTS = ['claude-code', 'codex', 'cursor', 'gemini-cli', 'opencode'] as const
export type AgentName = (typeof AGENTS)[number]
export type Scope = 'user' | 'project'

export interface TargetOptions {
  scope: Scope
  /** The project's root (project scope). */
  project: string
  dirs: AgentDirs
  /** How the agent starts brain (`brain`, or a path to it). */
  command: string
}

/** One file brain edits: `edit` gets its text (null: absent) and returns the new text (null: delete it). */
export interface FileTarget {
  path: string
  /** What brain keeps there, for the report. */
  holds: string
  edit(text: string | null, uninstall: boolean): string | null
}

export const SERVER_NAME = 'brain'
/** Seconds Claude Code, milliseconds Gemini CLI: both wait this long at most for a hook. */
const HOOK_TIMEOUT_S = 10

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function hookCommand(options: TargetOptions, harness: string, event: string): string {
  const prefix = options.dirs.brainHome === null ? '' : `BRAIN_HOME=${shellQuote(options.dirs.brainHome)} `
  return `${prefix}${shellQuote(options.command)} hook ${harness} ${event}`
}

function serverEnv(options: TargetOptions): Record<string, string> | undefined {
  return options.dirs.brainHome === null ? undefined : { BRAIN_HOME: options.dirs.brainHome }
}

/** The stdio server entry most agents share: `{command, args, env}`. */
function stdioServer(options: TargetOptions): Record<string, unknown> {
  const env = serverEnv(options)
  return { command: options.command, args: ['serve'], ...(env ? { env } : {}) }
}

/** Edits a JSON file's object, writing it back only when something changed. */
function jsonTarget(path: string, holds: string, change: (value: Record<string, unknown>, uninstall: boolean) => void): FileTarget {
  return {
    path,
    holds,
    edit(text, uninstall) {
      const doc = parseJsonConfig(path, text)
      const before = JSON.stringify(doc.value)
      change(doc.value, uninstall)
      if (JSON.stringify(doc.value) === before) return text
      if (Object.keys(doc.value).length === 0 && uninstall) return null
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

function isOurHook(hook: unknown, harness: string): boolean {
  return isObject(hook) && typeof hook.command === 'string' && new RegExp(`\\bbrain(\\.js)?'?\\s+hook\\s+${harness}\\s`).test(hook.command)
}

/** Claude Code's and Gemini CLI's shape: `hooks.<Event>: [{matcher?, hooks: [{type, command, timeout}]}]`. */
function setHooks(path: string, value: Record<string, unknown>, harness: string, options: TargetOptions, timeout: number, uninstall: boolean): void {
  const hooks = objectAt(path, value, 'hooks')
  const wanted = new Map(hookEvents(harness).map((e) => [e.eventName, e.event]))
  for (const eventName of new Set([...Object.keys(hooks), ...wanted.keys()])) {
    const event = uninstall ? undefined : wanted.get(eventName)
    const groups = hooks[eventName] ?? []
    if (!Array.isArray(groups)) throw new ConfigError('agent_config_unreadable', `${path}: hooks.${eventName} is not a list.`, { hint: 'Fix the file, then run the install again.' })
    const entry = event === undefined ? null : { type: 'command', command: hookCommand(options, harness, event), timeout }
    let placed = false
    const kept = groups.flatMap((group: unknown) => {
      if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some((h) => isOurHook(h, harness))) return [group]
      const inner = group.hooks.flatMap((h: unknown) => {
        if (!isOurHook(h, harness)) return [h]
        if (entry === null || placed) return []
        placed = true
        return [entry]
      })
      return inner.length === 0 ? [] : [{ ...group, hooks: inner }]
    })
    if (entry !== null && !placed) kept.push({ hooks: [entry] })
    if (kept.length > 0) hooks[eventName] = kept
    else delete hooks[eventName]
  }
  dropIfEmpty(value, 'hooks')
}

function rulesTarget(path: string, hooked: boolean): FileTarget {
  return {
    path,
    holds: 'instructions block',
    edit(text, uninstall) {
      const next = editRulesBlock(text, uninstall ? null : instructions(hooked))
      if (next === (text ?? '')) return text
      return next.trim() === '' ? null : next
    },
  }
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

function claudeCode(o: TargetOptions): FileTarget[] {
  const user = o.scope === 'user'
  const settings = user ? join(o.dirs.home, '.claude', 'settings.json') : join(o.project, '.claude', 'settings.json')
  const mcp = user ? join(o.dirs.home, '.claude.json') : join(o.project, '.mcp.json')
  return [
    jsonTarget(settings, 'hooks', (v, u) => setHooks(settings, v, 'claude-code', o, HOOK_TIMEOUT_S, u)),
    jsonTarget(mcp, 'MCP server', (v, u) => setServer(mcp, v, 'mcpServers', stdioServer(o), u)),
    rulesTarget(user ? join(o.dirs.home, '.claude', 'CLAUDE.md') : join(o.project, 'CLAUDE.md'), true),
  ]
}

function codex(o: TargetOptions): FileTarget[] {
  const config = o.scope === 'user' ? join(o.dirs.codexHome, 'config.toml') : join(o.project, '.codex', 'config.toml')
  const env = serverEnv(o)
  const table = [`[mcp_servers.${SERVER_NAME}]`, `command = ${tomlString(o.command)}`, `args = ["serve"]`, ...(env ? [`env = { BRAIN_HOME = ${tomlString(env.BRAIN_HOME!)} }`] : [])].join('\n')
  return [
    {
      path: config,
      holds: 'MCP server',
      edit(text, uninstall) {
        const edited = editTomlTable(config, text, ['mcp_servers', SERVER_NAME], uninstall ? null : table)
        if (!edited.changed) return text
        return edited.text.trim() === '' ? null : edited.text
      },
    },
    rulesTarget(o.scope === 'user' ? join(o.dirs.codexHome, 'AGENTS.md') : join(o.project, 'AGENTS.md'), false),
  ]
}

function cursor(o: TargetOptions): FileTarget[] {
  const mcp = o.scope === 'user' ? join(o.dirs.home, '.cursor', 'mcp.json') : join(o.project, '.cursor', 'mcp.json')
  const targets = [jsonTarget(mcp, 'MCP server', (v, u) => setServer(mcp, v, 'mcpServers', stdioServer(o), u))]
  // Cursor's user rules live in its settings, not in a file: only a project gets the rule.
  if (o.scope === 'project') {
    const rule = `---\ndescription: When to recall from and remember to the user's brain\nalwaysApply: true\n---\n\n${editRulesBlock(null, instructions(false))}`
    targets.push(ownedFileTarget(join(o.project, '.cursor', 'rules', 'brain.mdc'), rule))
  }
  return targets
}

function geminiCli(o: TargetOptions): FileTarget[] {
  const settings = o.scope === 'user' ? join(o.dirs.home, '.gemini', 'settings.json') : join(o.project, '.gemini', 'settings.json')
  return [
    jsonTarget(settings, 'MCP server and hooks', (v, u) => {
      setServer(settings, v, 'mcpServers', stdioServer(o), u)
      setHooks(settings, v, 'gemini-cli', o, HOOK_TIMEOUT_S * 1000, u)
    }),
    rulesTarget(o.scope === 'user' ? join(o.dirs.home, '.gemini', 'GEMINI.md') : join(o.project, 'GEMINI.md'), true),
  ]
}

function opencode(o: TargetOptions): FileTarget[] {
  const dir = o.scope === 'user' ? join(o.dirs.configHome, 'opencode') : o.project
  // The .jsonc file when that is the one there; brain still refuses to rewrite one with comments.
  const config = !existsSync(join(dir, 'opencode.json')) && existsSync(join(dir, 'opencode.jsonc')) ? join(dir, 'opencode.jsonc') : join(dir, 'opencode.json')
  const env = serverEnv(o)
  const server = { type: 'local', command: [o.command, 'serve'], enabled: true, ...(env ? { environment: env } : {}) }
  return [
    jsonTarget(config, 'MCP server', (v, u) => {
      if (!u && Object.keys(v).length === 0) v.$schema = 'https://opencode.ai/config.json'
      setServer(config, v, 'mcp', server, u)
      if (u && Object.keys(v).length === 1 && v.$schema !== undefined) delete v.$schema
    }),
    rulesTarget(join(dir, 'AGENTS.md'), false),
  ]
}

const BUILDERS: Record<AgentName, (o: TargetOptions) => FileTarget[]> = { 'claude-code': claudeCode, codex, cursor, 'gemini-cli': geminiCli, opencode }

export function agentTargets(agent: AgentName, options: TargetOptions): FileTarget[] {
  return BUILDERS[agent](options)
}

export function isAgentName(value: string): value is AgentName {
  return (AGENTS as readonly string[]).includes(value)
}
