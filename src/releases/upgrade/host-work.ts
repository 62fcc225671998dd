import { appendJsonLine, readJsonLines, upgradePaths } from './ledger.js'

/** One line of pending-host-work.jsonl: follow-up work an agent (or a person) should do (snake_case on disk, like all brain JSON). */
export interface HostWorkItem {
  /** Stable identity: re-running a migration never adds the same item twice. */
  id: string
  version: string
  kind: string
  /** The exact command to run, when there is one. */
  command: string | null
  reason: string
  source_id?: string
  source_path?: string
  counts?: Record<string, number>
  skill?: string
  created_at: string
}

export function readHostWork(home: string): HostWorkItem[] {
  return readJsonLines(upgradePaths(home).pendingHostWork).values.filter((v): v is HostWorkItem => v !== null && typeof v === 'object' && typeof (v as HostWorkItem).id === 'string')
}

/** Appends the items whose id is not in the file yet; returns how many were added. */
export function appendHostWork(home: string, items: readonly HostWorkItem[]): { added: number; alreadyPending: number } {
  const known = new Set(readHostWork(home).map((item) => item.id))
  let added = 0
  for (const item of items) {
    if (known.has(item.id)) continue
    appendJsonLine(upgradePaths(home).pendingHostWork, item)
    known.add(item.id)
    added++
  }
  return { added, alreadyPending: items.length - added }
}

/** A path as one shell word, so a command naming it can be pasted as is. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}
