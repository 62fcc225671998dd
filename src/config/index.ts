/**
 * Configuration, read in one place: the environment (the only reader of process.env), the
 * brain home's config.json and the database's config table.
 * May import: db, errors.
 */
export { loadConfig, brainHome, configForJob, jobSettingsOf, type Config, type EngineConfig, type EmbeddingConfig } from './load.js'
export { writeFileConfig, readFileConfig, oauthCredentialsFile, type FileConfig } from './file-config.js'
export { processEnv, parseFlag, parseToggleOff, disableRuntimeTelemetry, type BrainEnv } from './env.js'
export { parseDurationMs } from './durations.js'
export { readConfigValue, writeConfigValue, deleteConfigValue, DB_CONFIG_KEYS } from './db-config.js'
export { DB_CONFIG_DEFAULTS, effectiveConfigValue, effectiveConfigList, type ConfigEntry } from './db-defaults.js'
export { brainExists, hookTimeoutMs, agentDirs, type AgentDirs } from './home.js'
export { configFilePath } from './file-config.js'
export { readLlmSettings, normalizeLlmUrl, LLM_URL_KEY, LLM_MODEL_KEY, type LlmSettings } from './llm.js'
