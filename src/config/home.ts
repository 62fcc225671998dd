import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { BrainEnv } from './env.js'

/** `$BRAIN_HOME`, else `~/.brain`. Kept free of heavy imports: the thin client needs it. */
export function brainHome(env: BrainEnv): string {
  const fromEnv = env.BRAIN_HOME?.trim()
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.brain')
}

/** Whether a brain lives here: a database URL, or a home with a config file or an embedded database. */
export function brainExists(env: BrainEnv): boolean {
  if (env.BRAIN_DATABASE_URL?.trim()) return true
  const home = brainHome(env)
  return existsSync(join(home, 'config.json')) || existsSync(join(home, 'db'))
}

/** The user's home directory, where coding agents keep their configuration. */
export function userHome(env: BrainEnv): string {
  const fromEnv = env.HOME?.trim()
  return fromEnv ? resolve(fromEnv) : homedir()
}

/** Where the agents' configuration files live, read once here so tests can point them at a temp dir. */
export interface AgentDirs {
  home: string
  /** `$CODEX_HOME`, else `~/.codex`. */
  codexHome: string
  /** `$XDG_CONFIG_HOME`, else `~/.config`. */
  configHome: string
  /** `$BRAIN_HOME` when set: hooks and MCP servers must reach the same brain. */
  brainHome: string | null
}

export function agentDirs(env: BrainEnv): AgentDirs {
  const home = userHome(env)
  return {
    home,
    codexHome: env.CODEX_HOME?.trim() ? resolve(env.CODEX_HOME) : join(home, '.codex'),
    configHome: env.XDG_CONFIG_HOME?.trim() ? resolve(env.XDG_CONFIG_HOME) : join(home, '.config'),
    brainHome: env.BRAIN_HOME?.trim() ? resolve(env.BRAIN_HOME) : null,
  }
}

const DEFAULT_HOOK_TIMEOUT_MS = 5000

/** How long an agent hook waits for the brain before it gives up quietly (`BRAIN_HOOK_TIMEOUT_MS`). */
export function hookTimeoutMs(env: BrainEnv): number {
  const raw = Number(env.BRAIN_HOOK_TIMEOUT_MS)
  return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_HOOK_TIMEOUT_MS
}
