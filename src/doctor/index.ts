/**
 * Health checks (`brain doctor`): the database, the embedded lock and service, embeddings,
 * sources and upgrades, each with a status and a fix.
 * May import: agents, answers, backup, config, db, errors, history, intake/sources, models, queue,
 * releases/upgrade, util.
 */
export { runDoctor, describeFailure, type DoctorOptions } from './run-doctor.js'
export { overallStatus, type DoctorCheck, type DoctorReport, type CheckStatus } from './types.js'
export { checkVersionMigrations } from './migrations.js'
export { checkServiceOrLock } from './service.js'
export { checkQueue } from './queue.js'
export { checkEmbeddings } from './embeddings.js'
export { checkSchema, checkPgvector, checkConnection } from './database.js'
export { checkSources } from './sources.js'
export { checkBackups } from './backups.js'
