/**
 * A home and a project in a temp dir for `brain agents install` tests, run in-process: the agents'
 * files, brain's home (launcher and record of original files) under the home, and a PATH that
 * holds no `brain`, so what the entries start has to work without it.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { runInstall, type InstallOutcome, type InstallRequest } from '../../src/agents/index.js'
import { agentDirs } from '../../src/config/index.js'

export interface Sandbox {
  root: string
  home: string
  project: string
  brainHome: string
  env: Record<string, string>
  install(agent: InstallRequest['agent'], options?: Partial<InstallRequest> & { dryRun?: boolean }): Promise<InstallOutcome>
  statuses(outcome: InstallOutcome): string[]
}

/** No directory here holds a `brain`: sh and the system tools only. */
export const BARE_PATH = '/usr/bin:/bin'

export function sandbox(files: Record<string, string> = {}, options: { brainHome?: string } = {}): Sandbox {
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
  const brainHome = options.brainHome === undefined ? join(home, '.brain') : join(root, options.brainHome)
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: BARE_PATH, ...(options.brainHome === undefined ? {} : { BRAIN_HOME: brainHome }) }
  const dirs = agentDirs(env)
  return {
    root,
    home,
    project,
    brainHome,
    env,
    install: (agent, { dryRun = false, ...request } = {}) =>
      runInstall({ agent, scope: 'user', project, dirs, brainHome, command: null, source: null, trust: false, uninstall: false, ...request }, { dryRun, env }),
    statuses: (outcome) => outcome.changes.filter((c) => c.holds !== 'launcher').map((c) => c.status),
  }
}

/** Every file under `dir` with its bytes, but brain's own home (launcher, records). */
export function snapshot(dir: string, skip: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (full === skip) continue
      if (statSync(full).isDirectory()) walk(full)
      else out[relative(dir, full)] = readFileSync(full, 'utf8')
    }
  }
  walk(dir)
  return out
}

export function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}
