import type { EngineConfig } from './types.js'

/**
 * What callers outside the database seam may know about an engine choice before opening it.
 * Everything else about engines is a capability of the open database (db.capabilities).
 */

export const ENGINE_KINDS = ['pglite', 'postgres'] as const
export type EngineKind = (typeof ENGINE_KINDS)[number]

export function isEngineKind(value: string): value is EngineKind {
  return (ENGINE_KINDS as readonly string[]).includes(value)
}

/** A server database is configured (a URL); otherwise the brain is embedded in its data folder. */
export function usesServer(engine: EngineConfig): boolean {
  return engine.kind === 'postgres' && engine.url !== null && engine.url !== ''
}

/** The engine a configuration opens: the server's when a URL is set, else the embedded one. */
export function engineKindOf(engine: EngineConfig): EngineKind {
  return usesServer(engine) ? 'postgres' : 'pglite'
}

/** Where the brain lives: the server's URL or the embedded data folder. */
export function engineLocation(engine: EngineConfig): string {
  return usesServer(engine) ? engine.url! : engine.dataDir
}

/** One key per brain: the data directory of an embedded brain, the URL of a server one. */
export function engineKey(engine: EngineConfig): string {
  return usesServer(engine) ? `postgres:${engine.url}` : `pglite:${engine.dataDir}`
}
