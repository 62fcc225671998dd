import { statSync } from 'node:fs'
import { join } from 'node:path'
import { currentVersion } from '../releases/version/index.js'
import { packageRoot } from '../util/package-root.js'
import type { Identity } from './protocol.js'

/**
 * The version and build this code was compiled as. The build is the time of the last
 * compilation, so a rebuilt checkout and a running service from before it tell each other apart.
 */
export function currentIdentity(): Identity {
  const root = packageRoot()
  const version = currentVersion()
  let build = 'unknown'
  for (const marker of [join(root, 'dist', '.tsbuildinfo'), join(root, 'dist', 'src', 'cli', 'main.js')]) {
    try {
      build = String(Math.trunc(statSync(marker).mtimeMs))
      break
    } catch {
      // Not there in this install: try the next marker.
    }
  }
  return { version, build }
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.version === b.version && a.build === b.build
}
