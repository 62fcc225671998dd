/**
 * Upgrades between releases: the ledger, orchestrators per version and the pending host
 * work they leave.
 * May import: config, db, errors, frontmatter, intake/sources, releases/version.
 */
export { applyMigrations, pendingOrchestrators, describePlan, runOrchestrator, type ApplyResult, type ApplyOptions, type PlannedVersion, type VersionRun } from './apply.js'
export { readLedger, appendLedgerEntry, stuckPartials, completedVersions, upgradePaths, type LedgerEntry, type Ledger, type PhaseOutcome } from './ledger.js'
export { readHostWork, appendHostWork, shellWord, type HostWorkItem } from './host-work.js'
export { readUpdateState, writeUpdateState, type UpdateState } from './update-state.js'
export { schemaVersion, type SchemaVersion } from './schema-version.js'
export { ORCHESTRATORS } from './orchestrators/index.js'
export type { VersionOrchestrator, MigrationPhase, MigrationContext, PhaseReport } from './orchestrator.js'
