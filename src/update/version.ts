import { ValidationError } from '../errors/index.js'

/** A release version `A.B.C.D`: major, minor, patch, micro. */
export type ReleaseVersion = readonly [number, number, number, number]

const VERSION_PATTERN = /^v?(\d+)\.(\d+)\.(\d+)\.(\d+)$/

export function parseVersion(text: string): ReleaseVersion | null {
  const match = VERSION_PATTERN.exec(text.trim())
  return match ? [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])] : null
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
