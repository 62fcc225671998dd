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
  const modified = (path: string): number | undefined => statSync(join(root, 'dist', path), { throwIfNoEntry: false })?.mtimeMs
  // scripts/compile.mjs stamps .compiled and a tsc build writes .tsbuildinfo; the newer is the last
  // compilation. An install with neither has the compiled CLI's own time.
  const stamps = [modified('.compiled'), modified('.tsbuildinfo')].filter((time): time is number => time !== undefined)
  const compiled = stamps.length > 0 ? Math.max(...stamps) : modified(join('src', 'cli', 'main.js'))
  return { version, build: compiled === undefined ? 'unknown' : String(Math.trunc(compiled)) }
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.version === b.version && a.build === b.build
}
