import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compareVersionText as compareVersions, parseVersion } from '../version/index.js'

/** Where the upgrade bookkeeping lives under BRAIN_HOME. */
export function upgradePaths(home: string) {
  const dir = join(home, 'migrations')
  return {
    dir,
    completed: join(dir, 'completed.jsonl'),
    pendingHostWork: join(dir, 'pending-host-work.jsonl'),
    updateState: join(home, 'update-state.json'),
    auditFile: (version: string) => join(dir, `v${version}-audit.json`),
  }
}

export interface PhaseOutcome {
  name: string
  status: 'completed' | 'skipped' | 'failed'
  /** Why a phase was skipped or failed, or what it did. */
  detail?: string
}

/** One line of completed.jsonl. A run writes `partial` when it starts (or fails) and `complete` when every phase is done. */
export interface LedgerEntry {
  version: string
  status: 'partial' | 'complete'
  at: string
  phases?: PhaseOutcome[]
  error?: { class: string; code: string; message: string }
}

export interface Ledger {
  entries: LedgerEntry[]
  /** Lines that are not a valid entry (a torn write, a hand edit); they are ignored. */
  invalidLines: number
}

function isEntry(value: unknown): value is LedgerEntry {
  const v = value as Partial<LedgerEntry> | null
  return v !== null && typeof v === 'object' && typeof v.version === 'string' && parseVersion(v.version, { partial: true }) !== null && (v.status === 'partial' || v.status === 'complete')
}

export function readJsonLines(path: string): { values: unknown[]; invalidLines: number } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { values: [], invalidLines: 0 }
    throw err
  }
  const values: unknown[] = []
  let invalidLines = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      values.push(JSON.parse(line))
    } catch {
      invalidLines++
    }
  }
  return { values, invalidLines }
}

export function readLedger(home: string): Ledger {
  const { values, invalidLines } = readJsonLines(upgradePaths(home).completed)
  const entries = values.filter(isEntry)
  return { entries, invalidLines: invalidLines + values.length - entries.length }
}

export function appendJsonLine(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
  appendFileSync(path, `${JSON.stringify(value)}\n`, { mode: 0o600 })
}

export function appendLedgerEntry(home: string, entry: LedgerEntry): void {
  appendJsonLine(upgradePaths(home).completed, entry)
}

export function completedVersions(entries: readonly LedgerEntry[]): Set<string> {
  return new Set(entries.filter((e) => e.status === 'complete').map((e) => e.version))
}

/**
 * The ledger rule of the `minions_migration` check: a `partial` entry for version X is stuck
 * unless a `complete` entry exists for a version greater than or equal to X (then it is stale
 * and not reported). When a complete was written matters not: a later complete of an older
 * version does not clear it.
 */
export function stuckPartials(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const completes = entries.filter((e) => e.status === 'complete').map((e) => e.version)
  const stuck = entries.filter((e) => e.status === 'partial' && !completes.some((c) => compareVersions(c, e.version) >= 0))
  const seen = new Set<string>()
  return stuck.filter((e) => !seen.has(e.version) && seen.add(e.version))
}
