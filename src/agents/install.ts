import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { agentTargets, type AgentName, type TargetOptions } from './targets.js'

export type FileStatus = 'created' | 'updated' | 'deleted' | 'unchanged'

export interface FileChange {
  path: string
  holds: string
  status: FileStatus
  before: string | null
  after: string | null
}

export interface InstallRequest extends TargetOptions {
  agent: AgentName
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

/** What an install (or uninstall) would change, file by file, without writing anything. */
export async function planInstall(request: InstallRequest): Promise<FileChange[]> {
  const changes: FileChange[] = []
  for (const target of agentTargets(request.agent, request)) {
    const before = await readText(target.path)
    const after = target.edit(before, request.uninstall)
    const status: FileStatus = after === before ? 'unchanged' : after === null ? 'deleted' : before === null ? 'created' : 'updated'
    changes.push({ path: target.path, holds: target.holds, status, before, after })
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
    await writeFile(temp, change.after, { mode: mode === undefined ? 0o644 : mode & 0o777 })
    await rename(temp, change.path)
  }
}

/** A unified diff of a plan, file by file (what `--dry-run` prints). */
export async function planDiff(changes: readonly FileChange[]): Promise<string> {
  const { createTwoFilesPatch } = await import('diff')
  return changes
    .filter((c) => c.status !== 'unchanged')
    .map((c) => createTwoFilesPatch(c.before === null ? '/dev/null' : c.path, c.after === null ? '/dev/null' : c.path, c.before ?? '', c.after ?? '', '', '', { context: 3 }))
    .join('')
}
