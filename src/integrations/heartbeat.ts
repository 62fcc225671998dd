import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const HEARTBEAT_STATUSES = ['ok', 'warn', 'fail'] as const
export type HeartbeatStatus = (typeof HEARTBEAT_STATUSES)[number]

/** One line of `$BRAIN_HOME/integrations/<id>/heartbeat.jsonl`. */
export interface Heartbeat {
  ts: string
  status: HeartbeatStatus
  message?: string
  [extra: string]: unknown
}

export interface HeartbeatLog {
  beats: Heartbeat[]
  /** Lines that are not a heartbeat object (1-based line numbers). */
  badLines: number[]
}

export function heartbeatPath(home: string, id: string): string {
  return join(home, 'integrations', id, 'heartbeat.jsonl')
}

function asHeartbeat(value: unknown): Heartbeat | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const record = value as Record<string, unknown>
  if (typeof record.ts !== 'string' || Number.isNaN(Date.parse(record.ts))) return null
  if (!(HEARTBEAT_STATUSES as readonly unknown[]).includes(record.status)) return null
  return record as Heartbeat
}

export function readHeartbeats(home: string, id: string): HeartbeatLog {
  const path = heartbeatPath(home, id)
  if (!existsSync(path)) return { beats: [], badLines: [] }
  const beats: Heartbeat[] = []
  const badLines: number[] = []
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        parsed = null
      }
      const beat = asHeartbeat(parsed)
      if (beat) beats.push(beat)
      else badLines.push(index + 1)
    })
  return { beats, badLines }
}

/** The most recent heartbeat by timestamp (the file is append-only, but writers' clocks may differ). */
export function latestHeartbeat(beats: readonly Heartbeat[]): Heartbeat | null {
  let latest: Heartbeat | null = null
  for (const beat of beats) if (latest === null || Date.parse(beat.ts) >= Date.parse(latest.ts)) latest = beat
  return latest
}

export function appendHeartbeat(home: string, id: string, beat: Heartbeat): void {
  mkdirSync(join(home, 'integrations', id), { recursive: true })
  appendFileSync(heartbeatPath(home, id), `${JSON.stringify(beat)}\n`)
}
