/**
 * Releases: the room for versions of brain itself. Each part is a folder of its own, declared in
 * eslint/folders.js and imported through its own index.ts; this room only groups them.
 * - version/: the VERSION file and the one parser and comparison of release versions.
 * - update/: the update check against the releases feed.
 * - upgrade/: the upgrade ledger, the per-version orchestrators and the host work they leave.
 */
export {}
