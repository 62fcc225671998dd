import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/** The folder holding brain's package.json, whether running from src/ or dist/. */
export function packageRoot(): string {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'migrations'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('brain: cannot find the package root (package.json beside migrations/)')
    dir = parent
  }
  cached = dir
  return dir
}
