import { execFile } from 'node:child_process'
import { chmod, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'

/** The line that marks a pre-commit hook as brain's own. */
export const HOOK_MARKER = '# brain-frontmatter-hook'

const MARKDOWN_PATHSPECS = `'*.md' '*.markdown' '*.mdx'`

/**
 * The pre-commit hook. It never blocks a commit because brain is missing (a clone on another
 * machine, a CI runner): it warns and lets the commit through. It reports lint findings only,
 * so notes without front matter stay committable.
 */
export function hookScript(): string {
  return [
    '#!/bin/sh',
    `${HOOK_MARKER}: checks the front matter of staged markdown files.`,
    '# Installed by `brain frontmatter install-hook`; remove it with `brain frontmatter install-hook --uninstall`.',
    'if ! command -v brain >/dev/null 2>&1; then',
    '  echo "brain: front matter check skipped: the brain command is not on PATH" >&2',
    '  exit 0',
    'fi',
    `if [ -z "$(git diff --cached --name-only --diff-filter=ACMR -- ${MARKDOWN_PATHSPECS})" ]; then`,
    '  exit 0',
    'fi',
    `if ! git diff --cached --name-only --diff-filter=ACMR -z -- ${MARKDOWN_PATHSPECS} | xargs -0 brain frontmatter validate --lint --no-json; then`,
    '  echo "brain: commit stopped by front matter problems; \\`brain frontmatter validate <file> --fix\\` repairs most of them (or commit with --no-verify)." >&2',
    '  exit 1',
    'fi',
    'exit 0',
    '',
  ].join('\n')
}

export type HookAction = 'installed' | 'updated' | 'replaced' | 'refused' | 'skipped_not_git' | 'skipped_no_path' | 'removed' | 'restored' | 'not_installed' | 'not_ours'

export interface HookResult {
  sourceId: string
  path: string | null
  action: HookAction
  hookPath: string | null
  backupPath: string | null
  note: string
}

interface HookTarget {
  id: string
  localPath: string | null
}

function gitHooksDir(dir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--is-inside-work-tree', '--git-path', 'hooks'], { cwd: dir, encoding: 'utf8' }, (err, stdout) => {
      const lines = stdout.trim().split('\n')
      if (err || lines[0] !== 'true' || !lines[1]) return resolve(null)
      resolve(isAbsolute(lines[1]) ? lines[1] : join(dir, lines[1]))
    })
  })
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

type Located = { hookPath: string; existing: string | null } | HookResult

async function locate(source: HookTarget): Promise<Located> {
  const base = { sourceId: source.id, path: source.localPath, hookPath: null, backupPath: null }
  if (!source.localPath) return { ...base, action: 'skipped_no_path', note: 'the source has no local directory' }
  const hooks = await gitHooksDir(source.localPath)
  if (!hooks) return { ...base, action: 'skipped_not_git', note: 'not a git repository; no hook installed' }
  const hookPath = join(hooks, 'pre-commit')
  return { hookPath, existing: await readOrNull(hookPath) }
}

/** Installs the hook in one source; a hook that is not brain's is replaced only with `force` (kept as `<hook>.bak`). */
export async function installHook(source: HookTarget, options: { force: boolean }): Promise<HookResult> {
  const located = await locate(source)
  if ('action' in located) return located
  const { hookPath, existing } = located
  const base = { sourceId: source.id, path: source.localPath, hookPath, backupPath: null }
  const ours = existing?.includes(HOOK_MARKER) ?? false
  if (existing !== null && !ours && !options.force) {
    return { ...base, action: 'refused', note: "a pre-commit hook that is not brain's exists; re-run with --force to replace it (it is kept as pre-commit.bak)" }
  }
  let backupPath: string | null = null
  if (existing !== null && !ours) {
    backupPath = `${hookPath}.bak`
    await copyFile(hookPath, backupPath)
  }
  await mkdir(join(hookPath, '..'), { recursive: true })
  const tmp = `${hookPath}.brain-tmp`
  await writeFile(tmp, hookScript(), { mode: 0o755 })
  await chmod(tmp, 0o755)
  await rename(tmp, hookPath)
  const action: HookAction = existing === null ? 'installed' : ours ? 'updated' : 'replaced'
  return { ...base, backupPath, action, note: backupPath ? `the previous hook is kept as ${backupPath}` : '' }
}

/** Removes brain's hook; a hook it replaced (`<hook>.bak`) is put back. A hook that is not brain's is left alone. */
export async function uninstallHook(source: HookTarget): Promise<HookResult> {
  const located = await locate(source)
  if ('action' in located) return located
  const { hookPath, existing } = located
  const base = { sourceId: source.id, path: source.localPath, hookPath, backupPath: null }
  if (existing === null) return { ...base, action: 'not_installed', note: 'no pre-commit hook' }
  if (!existing.includes(HOOK_MARKER)) return { ...base, action: 'not_ours', note: "the pre-commit hook is not brain's; left alone" }
  const backup = `${hookPath}.bak`
  if ((await readOrNull(backup)) !== null) {
    await rename(backup, hookPath)
    return { ...base, action: 'restored', backupPath: backup, note: 'the previous hook was put back' }
  }
  await rm(hookPath)
  return { ...base, action: 'removed', note: '' }
}
