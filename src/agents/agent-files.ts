/** Where each agent keeps what brain writes, by scope: read by the install and by doctor. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentDirs } from '../config/index.js'
import type { Scope } from './entries.js'

interface AgentFiles {
  /** The file with brain's MCP server entry. */
  server: string
  /** The file with brain's hooks (its local settings for a Claude Code project). */
  hooks?: string
  /** The rules file with the instructions block (Cursor: brain's own rule file). */
  rules?: string
}

/** opencode.json, or an existing opencode.jsonc when that is the one there. */
function opencodeConfig(dir: string): string {
  return !existsSync(join(dir, 'opencode.json')) && existsSync(join(dir, 'opencode.jsonc')) ? join(dir, 'opencode.jsonc') : join(dir, 'opencode.json')
}

export function agentFiles(agent: string, scope: Scope, project: string, dirs: AgentDirs): AgentFiles {
  const user = scope === 'user'
  switch (agent) {
    case 'claude-code':
      return user
        ? { server: join(dirs.home, '.claude.json'), hooks: join(dirs.home, '.claude', 'settings.json'), rules: join(dirs.home, '.claude', 'CLAUDE.md') }
        : { server: join(project, '.mcp.json'), hooks: join(project, '.claude', 'settings.local.json'), rules: join(project, 'CLAUDE.md') }
    case 'codex':
      return user
        ? { server: join(dirs.codexHome, 'config.toml'), hooks: join(dirs.codexHome, 'hooks.json'), rules: join(dirs.codexHome, 'AGENTS.md') }
        : { server: join(project, '.codex', 'config.toml'), hooks: join(project, '.codex', 'hooks.json'), rules: join(project, 'AGENTS.md') }
    case 'cursor':
      // Cursor's user rules live in its settings, not in a file.
      return user
        ? { server: join(dirs.home, '.cursor', 'mcp.json'), hooks: join(dirs.home, '.cursor', 'hooks.json') }
        : { server: join(project, '.cursor', 'mcp.json'), hooks: join(project, '.cursor', 'hooks.json'), rules: join(project, '.cursor', 'rules', 'brain.mdc') }
    case 'gemini-cli':
      return user
        ? { server: join(dirs.home, '.gemini', 'settings.json'), rules: join(dirs.home, '.gemini', 'GEMINI.md') }
        : { server: join(project, '.gemini', 'settings.json'), rules: join(project, 'GEMINI.md') }
    default: {
      const dir = user ? join(dirs.configHome, 'opencode') : project
      return { server: opencodeConfig(dir), rules: join(dir, 'AGENTS.md') }
    }
  }
}
