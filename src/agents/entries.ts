/**
 * Brain's entries as agents hold them: the MCP server (`serve --tools memory`) and the hook
 * commands, in two forms. A personal file (user scope, a client's local settings) gets this
 * machine's command; a shared project file gets the run-time lookup of the launcher, so it names
 * no path, home or person.
 */
import type { AgentDirs } from '../config/index.js'
import { shellJoin, shellQuote } from './command-line.js'
import { SHARED_LAUNCHER, sharedArgv } from './launcher.js'

export type Scope = 'user' | 'project'

export interface TargetOptions {
  scope: Scope
  /** The project's root (project scope). */
  project: string
  dirs: AgentDirs
  /** How this machine starts brain, as argv: the launcher, or the words of `--command`. */
  command: string[]
  /** Whether `command` sets BRAIN_HOME itself (the launcher does); else a non-default home is added. */
  carriesHome: boolean
  /** The source hooks and the server work in (`--source`), or null for the default. */
  source: string | null
  /** Write the trust or approval the client needs for a project (`--trust`). */
  trust: boolean
}

/**
 * One file brain edits: `edit` gets its text (null: absent) and, when brain has a record of it,
 * what the file held before brain first wrote it (null: it did not exist), and returns the new
 * text (null: delete it).
 */
export interface FileTarget {
  path: string
  /** What brain keeps there, for the report. */
  holds: string
  /** Permission bits for a file brain creates (default 0644). */
  mode?: number
  edit(text: string | null, uninstall: boolean, original?: string | null): string | null
}

export const SERVER_NAME = 'brain'

/**
 * Ends every hook command brain writes: a shell comment, so it changes nothing when run, by which
 * a later install or uninstall knows its own hooks whatever command starts brain.
 */
export const HOOK_MARKER = '# brain:agents-install'

/** Hooks written before the marker: `brain hook <harness> …`, `brain.js hook …`, possibly quoted. */
function legacyHook(command: string, harness: string): boolean {
  return new RegExp(`\\bbrain(\\.js)?'?\\s+hook\\s+${harness}\\s`).test(command)
}

export function isBrainHook(command: unknown, harness: string): boolean {
  return typeof command === 'string' && (command.includes(HOOK_MARKER) || legacyHook(command, harness))
}

function sourceArgs(o: TargetOptions): string[] {
  return o.source === null ? [] : ['--source', o.source]
}

function serveArgs(o: TargetOptions): string[] {
  return ['serve', '--tools', 'memory', ...sourceArgs(o)]
}

function homeEnv(o: TargetOptions): Record<string, string> | undefined {
  return o.carriesHome || o.dirs.brainHome === null ? undefined : { BRAIN_HOME: o.dirs.brainHome }
}

export interface ServerEntry {
  command: string
  args: string[]
  env?: Record<string, string>
}

/** The stdio server: this machine's command in a personal file, the launcher lookup in a shared one. */
export function serverEntry(o: TargetOptions, shared: boolean): ServerEntry {
  const argv = shared ? sharedArgv(serveArgs(o)) : [...o.command, ...serveArgs(o)]
  const env = shared ? undefined : homeEnv(o)
  return { command: argv[0]!, args: argv.slice(1), ...(env ? { env } : {}) }
}

/** A hook's shell command line, ending in the marker. */
export function hookCommand(o: TargetOptions, harness: string, event: string, shared: boolean): string {
  const args = shellJoin(['hook', harness, event, ...sourceArgs(o)])
  if (shared) return `${SHARED_LAUNCHER} ${args} ${HOOK_MARKER}`
  const env = homeEnv(o)
  const prefix = env ? `BRAIN_HOME=${shellQuote(env.BRAIN_HOME!)} ` : ''
  return `${prefix}${shellJoin(o.command)} ${args} ${HOOK_MARKER}`
}
