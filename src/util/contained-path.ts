import { lstat, mkdir, realpath } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { ValidationError } from '../errors/index.js'

/**
 * Writes that belong inside a root (write-through into the repository, export, the inbox archive)
 * must stay there even when a folder inside the root is a symbolic link to somewhere else. A
 * lexical check of the path is not enough, so every existing folder on the way is resolved to its
 * real path and compared with the root's.
 */

function within(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

export function outsideRoot(root: string, path: string): ValidationError {
  return new ValidationError('path_outside_root', `${path} resolves outside ${root}; nothing was written.`, {
    hint: 'A folder on the way is a symbolic link (or the name climbs out with ..); brain writes only inside the folder it was given.',
  })
}

/** True when `path`, as written, does not climb out of `root` (no real paths consulted). */
export function lexicallyWithin(root: string, path: string): boolean {
  return within(resolve(root), resolve(root, path))
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch {
    return false
  }
}

/**
 * Checks that the folder `dir` lies inside `root` once every existing folder on the way is
 * resolved, and with `create` makes the missing ones, one level at a time so that none is made
 * through a link. Throws `path_outside_root` otherwise.
 */
export async function containedDirectory(root: string, dir: string, options: { create: boolean; mode?: number }): Promise<void> {
  const rootReal = await realpath(root)
  const absolute = resolve(root, dir)
  if (!within(resolve(root), absolute)) throw outsideRoot(root, absolute)
  const steps = relative(resolve(root), absolute)
    .split(sep)
    .filter((s) => s !== '')
  let current = resolve(root)
  for (const step of steps) {
    current = resolve(current, step)
    if (await exists(current)) {
      if (!within(rootReal, await realpath(current))) throw outsideRoot(root, current)
    } else if (options.create) {
      await mkdir(current, options.mode === undefined ? undefined : { mode: options.mode }).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err
      })
      if (!within(rootReal, await realpath(current))) throw outsideRoot(root, current)
    } else return
  }
}
