/**
 * The package root (`import … from 'brain'`): the release version and the pieces every
 * embedder needs first. Capabilities live at their own subpaths (`brain/pages`, `brain/search`, …)
 * so importing the root stays cheap.
 */
import { currentVersion } from './releases/version/index.js'

/** The running release, `A.B.C.D`, as written in the VERSION file. */
export function brainVersion(): string {
  return currentVersion()
}

export { loadConfig, brainHome, type Config } from './config/index.js'
export { BrainError, serializeError, isBrainError, type ErrorEnvelope } from './errors/index.js'
export { openDatabase, migrate, type Database } from './db/index.js'

type ExportPages = typeof import('./export/index.js').exportPages

/**
 * Writes pages out as markdown files that import back into the same pages, as `brain export`
 * does; for scripts and backups. Loaded on first use so the root import stays cheap.
 */
export async function exportPages(...args: Parameters<ExportPages>): ReturnType<ExportPages> {
  const { exportPages: run } = await import('./export/index.js')
  return run(...args)
}
export type { ExportOptions, ExportResult } from './export/index.js'
