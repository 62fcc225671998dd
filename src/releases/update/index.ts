/**
 * Release versions (four-part) and the update check against the releases feed.
 * May import: config, errors, releases/version.
 */
export { parseVersion, requireVersion, compareVersions, formatVersion, upgradeKind, type ReleaseVersion, type UpgradeKind } from '../version/index.js'
export { checkForUpdate, updateFeedUrl, UpdateFeedError, DEFAULT_RELEASES_FEED_URL, FEED_TIMEOUT_MS, type ChangelogEntry, type UpdateCheck } from './check-update.js'
