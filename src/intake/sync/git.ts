import { execFile } from 'node:child_process'
import { ProviderError } from '../../errors/index.js'
import { parseDiffRaw, parseLsTree, type DiffEntry, type TreeEntry } from './git-parse.js'

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024

interface GitOutput {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the system git with an argument array (never a shell string). Path arguments are taken
 * literally, and a non-zero exit is returned, not thrown, for the commands that use it as an
 * answer (`rev-parse --verify`, `cat-file -e`).
 */
function git(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile('git', ['--literal-pathspecs', '-c', 'core.quotepath=off', ...args], { cwd, maxBuffer: MAX_OUTPUT_BYTES, signal, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code: unknown = err ? (err as { code?: unknown }).code : 0
      if (typeof code === 'number') {
        resolve({ code, stdout, stderr })
      } else if (code === 'ENOENT' && !signal?.aborted) {
        reject(
          new ProviderError('git_not_found', 'The git program was not found (or the directory is gone).', {
            hint: 'Install git, make sure it is on PATH, and check the directory exists.',
            cause: err,
          }),
        )
      } else {
        reject(err)
      }
    })
  })
}

async function gitOk(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<string> {
  const out = await git(cwd, args, signal)
  if (out.code !== 0) {
    throw new ProviderError('git_failed', `git ${args[0]} failed in ${cwd}: ${out.stderr.trim().split('\n')[0] ?? `exit ${out.code}`}`, {
      hint: 'Check that the directory is a readable git working tree (`git status` there).',
    })
  }
  return out.stdout
}

/** Whether `dir` is inside a git working tree. */
export async function isGitWorkTree(dir: string): Promise<boolean> {
  const out = await git(dir, ['rev-parse', '--is-inside-work-tree']).catch((err: unknown) => {
    if (err instanceof ProviderError) throw err
    return { code: 1, stdout: '', stderr: '' }
  })
  return out.code === 0 && out.stdout.trim() === 'true'
}

/** The commit HEAD points at, or null in a repository without commits. */
export async function headCommit(dir: string): Promise<string | null> {
  const out = await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
  return out.code === 0 ? out.stdout.trim() : null
}

/** Whether a commit is present in the repository (a rewritten history may have dropped it). */
export async function commitExists(dir: string, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) return false
  return (await git(dir, ['cat-file', '-e', `${sha}^{commit}`])).code === 0
}

/**
 * What changed between two commits below `dir`, with rename detection; paths are relative to
 * `dir` (which may be a subdirectory of the repository).
 */
export async function diffCommits(dir: string, from: string, to: string, signal?: AbortSignal): Promise<DiffEntry[]> {
  const out = await gitOk(dir, ['diff', '--raw', '-z', '-M', '--no-abbrev', '--relative', '--no-ext-diff', '--no-textconv', '--no-color', from, to, '--'], signal)
  return parseDiffRaw(out)
}

/** Every file of a commit below `dir` (paths relative to `dir`); optionally only `paths`. */
export async function listTree(dir: string, commit: string, paths?: readonly string[], signal?: AbortSignal): Promise<TreeEntry[]> {
  if (paths && paths.length === 0) return []
  if (!paths) return parseLsTree(await gitOk(dir, ['ls-tree', '-r', '-z', '--long', commit], signal))
  const entries: TreeEntry[] = []
  // Keep each command line well under the OS argument limit.
  for (let start = 0; start < paths.length; start += 200) {
    entries.push(...parseLsTree(await gitOk(dir, ['ls-tree', '-r', '-z', '--long', commit, '--', ...paths.slice(start, start + 200)], signal)))
  }
  return entries
}
