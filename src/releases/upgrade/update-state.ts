import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { upgradePaths } from './ledger.js'

/** `$BRAIN_HOME/update-state.json`: where this home's upgrades stand. */
export interface UpdateState {
  /** The release that last ran `apply-migrations`. */
  version: string
  /** Highest schema migration applied to the brain, when a brain was reachable. */
  schema_version: number | null
  completed_versions: string[]
  updated_at: string
}

export function readUpdateState(home: string): UpdateState | null {
  try {
    const parsed = JSON.parse(readFileSync(upgradePaths(home).updateState, 'utf8')) as Partial<UpdateState>
    return typeof parsed.version === 'string' ? (parsed as UpdateState) : null
  } catch {
    return null
  }
}

export function writeUpdateState(home: string, state: UpdateState): void {
  const path = upgradePaths(home).updateState
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
  renameSync(tmp, path)
}
