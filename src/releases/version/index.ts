/**
 * Releases: the one reader of the VERSION file and the one parser and comparison of release
 * versions, for the update check, upgrades, `--version` and the service's identity.
 * May import: errors, util.
 */
export { parseVersion, requireVersion, compareVersions, compareVersionText, formatVersion, upgradeKind, currentVersion, type ReleaseVersion, type UpgradeKind } from './version.js'
