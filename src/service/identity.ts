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
  // scripts/compile.mjs stamps .compiled and a tsc build writes .tsbuildinfo; the newer is the last
  // compilation. An install with neither has the compiled CLI's own time.
  const times = ['.compiled', '.tsbuildinfo', join('src', 'cli', 'main.js')].map((marker) => statSync(join(root, 'dist', marker), { throwIfNoEntry: false })?.mtimeMs)
  const stamps = times.slice(0, 2).filter((time) => time !== undefined)
  const newest = stamps.length > 0 ? Math.max(...stamps) : times[2]
  return { version, build: newest === undefined ? 'unknown' : String(Math.trunc(newest)) }
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.version === b.version && a.build === b.build
}
