import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { AgentDirs } from '../config/index.js'
import type { Scope, TargetOptions } from './entries.js'
import { currentBrainArgv, launcherPath, launcherScript, requireCommand, sharedArgv } from './launcher.js'
import { readOriginals, writeOriginals, type Originals } from './originals.js'
import { agentTargets, type AgentName } from './targets.js'

export type FileStatus = 'created' | 'updated' | 'deleted' | 'unchanged'

export interface FileChange {
  path: string
  holds: string
  status: FileStatus
  before: string | null
  after: string | null
  mode?: number
}

export interface InstallRequest {
  agent: AgentName
  scope: Scope
  /** The project's root (project scope). */
  project: string
  dirs: AgentDirs
  /** The brain home, resolved: where the launcher and the record of original files live. */
  brainHome: string
  /** The words of `--command`, or null: the launcher, starting this install of brain. */
  command: string[] | null
  source: string | null
  trust: boolean
  uninstall: boolean
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

function statusOf(before: string | null, after: string | null): FileStatus {
  return after === before ? 'unchanged' : after === null ? 'deleted' : before === null ? 'created' : 'updated'
}

/** The entries' options: this machine's command is the launcher unless `--command` names another. */
function targetOptions(request: InstallRequest): TargetOptions {
  const { scope, project, dirs, source, trust } = request
  const command = request.command ?? [launcherPath(request.brainHome)]
  return { scope, project, dirs, source, trust, command, carriesHome: request.command === null }
}

/** What the launcher starts: `--command`'s words, else this install's node and bin/brain.js. */
function launchedArgv(request: InstallRequest): string[] {
  return request.command ?? currentBrainArgv()
}

/** What an install (or uninstall) would change, file by file, without writing anything; the launcher first. */
export async function planInstall(request: InstallRequest): Promise<FileChange[]> {
  const changes: FileChange[] = []
  if (!request.uninstall) {
    const path = launcherPath(request.brainHome)
    const before = await readText(path)
    const after = launcherScript(launchedArgv(request), request.brainHome)
    changes.push({ path, holds: 'launcher', status: statusOf(before, after), before, after, mode: 0o755 })
  }
  const originals = await readOriginals(request.brainHome)
  for (const target of agentTargets(request.agent, targetOptions(request))) {
    const before = await readText(target.path)
    const after = target.edit(before, request.uninstall, Object.hasOwn(originals, target.path) ? originals[target.path] : undefined)
    changes.push({ path: target.path, holds: target.holds, status: statusOf(before, after), before, after })
  }
  return changes
}

/** Writes a plan: each file replaced whole through a temporary file, keeping its mode. */
export async function applyInstall(changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    if (change.status === 'unchanged') continue
    if (change.after === null) {
      await rm(change.path, { force: true })
      continue
    }
    await mkdir(dirname(change.path), { recursive: true })
    const mode = (await stat(change.path).catch(() => null))?.mode
    const temp = `${change.path}.brain-${process.pid}.tmp`
    await writeFile(temp, change.after, { mode: mode === undefined ? (change.mode ?? 0o644) : mode & 0o777 })
    await rename(temp, change.path)
  }
}

/** Notes what a file held before brain's first write, and forgets it once the file is back to that. */
async function recordOriginals(brainHome: string, changes: readonly FileChange[], uninstall: boolean): Promise<void> {
  const originals: Originals = await readOriginals(brainHome)
  let changed = false
  for (const change of changes) {
    if (change.status === 'unchanged' || change.holds === 'launcher') continue
    const known = Object.hasOwn(originals, change.path)
    if (!uninstall && !known) {
      originals[change.path] = change.before
      changed = true
    } else if (uninstall && known && originals[change.path] === change.after) {
      delete originals[change.path]
      changed = true
    }
  }
  if (changed) await writeOriginals(brainHome, originals)
}

export interface InstallOutcome {
  changes: FileChange[]
  /** What `--version` printed through the command the agents were given. */
  version: string | null
}

/**
 * Plans, checks and writes an install: the launcher is written first and the command the agents
 * will run is started with `--version` (the shared project form too) before any agent file is
 * touched. A dry run checks the command the launcher would start and writes nothing.
 */
export async function runInstall(request: InstallRequest, options: { dryRun: boolean; env: NodeJS.ProcessEnv }): Promise<InstallOutcome> {
  const changes = await planInstall(request)
  if (request.uninstall) {
    if (!options.dryRun) {
      await applyInstall(changes)
      await recordOriginals(request.brainHome, changes, true)
    }
    return { changes, version: null }
  }
  if (options.dryRun) return { changes, version: await requireCommand(launchedArgv(request), options.env) }
  const [launcher, ...rest] = changes
  await applyInstall([launcher!])
  const version = await requireCommand(targetOptions(request).command, options.env)
  if (request.scope === 'project') await requireCommand(sharedArgv([]), options.env)
  await recordOriginals(request.brainHome, rest, false)
  await applyInstall(rest)
  return { changes, version }
}

/** A unified diff of a plan, file by file (what `--dry-run` prints). */
export async function planDiff(changes: readonly FileChange[]): Promise<string> {
  const { createTwoFilesPatch } = await import('diff')
  return changes
    .filter((c) => c.status !== 'unchanged')
    .map((c) => createTwoFilesPatch(c.before === null ? '/dev/null' : c.path, c.after === null ? '/dev/null' : c.path, c.before ?? '', c.after ?? '', '', '', { context: 3 }))
    .join('')
}
