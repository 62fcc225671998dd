import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ValidationError } from '../../errors/index.js'
import { packageRoot } from '../../util/package-root.js'

/** A release version `A.B.C.D`: major, minor, patch, micro. */
export type ReleaseVersion = readonly [number, number, number, number]

const VERSION_PATTERN = /^v?(\d+)\.(\d+)\.(\d+)\.(\d+)$/
/** Older releases were named with fewer parts (`0.22.4`); the missing ones count as 0. */
const PARTIAL_PATTERN = /^v?\d+(\.\d+){0,3}$/

/** `A.B.C.D` (a leading `v` allowed); with `partial`, `A`, `A.B` and `A.B.C` too. */
export function parseVersion(text: string, options: { partial?: boolean } = {}): ReleaseVersion | null {
  const trimmed = text.trim()
  const match = VERSION_PATTERN.exec(trimmed)
  if (match) return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])]
  if (!options.partial || !PARTIAL_PATTERN.test(trimmed)) return null
  const parts = trimmed.replace(/^v/, '').split('.').map(Number)
  while (parts.length < 4) parts.push(0)
  return [parts[0]!, parts[1]!, parts[2]!, parts[3]!]
}

export function requireVersion(text: string): ReleaseVersion {
  const version = parseVersion(text)
  if (!version) throw new ValidationError('invalid_version', `"${text}" is not a four-part version (A.B.C.D).`)
  return version
}

export function compareVersions(a: ReleaseVersion, b: ReleaseVersion): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

/** Orders version texts, older names included; text that is no version sorts as 0.0.0.0. */
export function compareVersionText(a: string, b: string): number {
  const zero: ReleaseVersion = [0, 0, 0, 0]
  return compareVersions(parseVersion(a, { partial: true }) ?? zero, parseVersion(b, { partial: true }) ?? zero)
}

export function formatVersion(v: ReleaseVersion): string {
  return v.join('.')
}

export type UpgradeKind = 'major' | 'minor' | 'patch' | 'none'

/** How far `latest` is ahead of `current`; patch covers the third and fourth parts. */
export function upgradeKind(current: ReleaseVersion, latest: ReleaseVersion): UpgradeKind {
  if (compareVersions(latest, current) <= 0) return 'none'
  if (latest[0] !== current[0]) return 'major'
  if (latest[1] !== current[1]) return 'minor'
  return 'patch'
}

let current: string | undefined

/** The release this build is: the VERSION file, read once. */
export function currentVersion(): string {
  current ??= readFileSync(join(packageRoot(), 'VERSION'), 'utf8').trim()
  return current
}
