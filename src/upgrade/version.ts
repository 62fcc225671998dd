import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../util/package-root.js'

/** `A.B.C.D` as four numbers; missing parts count as 0, anything else is not a version. */
export function parseVersion(raw: string): number[] | null {
  const text = raw.trim().replace(/^v/, '')
  if (!/^\d+(\.\d+){0,3}$/.test(text)) return null
  const parts = text.split('.').map(Number)
  while (parts.length < 4) parts.push(0)
  return parts
}

export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a) ?? [0, 0, 0, 0]
  const pb = parseVersion(b) ?? [0, 0, 0, 0]
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!
  return 0
}

/** The release this build is (the VERSION file). */
export function currentVersion(): string {
  return readFileSync(join(packageRoot(), 'VERSION'), 'utf8').trim()
}
