/**
 * Integration recipes (markdown with front matter under recipes/): the catalogue, their
 * requirements and status checks for `brain integrations`.
 * May import: config, db, doctor, errors, util.
 */
export { CATEGORIES, loadRecipes, type Category, type Recipe, type RecipeCatalog, type RecipeProblem } from './recipes.js'
export { checkRequirement, type RequirementContext, type RequirementResult } from './requirements.js'
export { appendHeartbeat, heartbeatPath, latestHeartbeat, readHeartbeats, HEARTBEAT_STATUSES, type Heartbeat, type HeartbeatLog, type HeartbeatStatus } from './heartbeat.js'
export {
  integrationStatus,
  integrationStats,
  integrationsDoctor,
  DEFAULT_HEARTBEAT_MAX_AGE_MS,
  type CheckStatus,
  type DoctorCheck,
  type DoctorReport,
  type IntegrationState,
  type IntegrationStats,
  type IntegrationStatus,
} from './report.js'
export { testIntegration, type IntegrationTestResult } from './run-check.js'
