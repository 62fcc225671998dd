import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { BrainEnv } from './env.js'

/** `$BRAIN_HOME`, else `~/.brain`. Kept free of heavy imports: the thin client needs it. */
export function brainHome(env: BrainEnv): string {
  const fromEnv = env.BRAIN_HOME?.trim()
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.brain')
}
