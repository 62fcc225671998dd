import { open, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** One line of a supervisor's event file, with the supervisor it came from. */
export interface SupervisorEventLine {
  supervisor: 'jobs' | 'ingest'
  ts: string
  event: string
  [field: string]: unknown
}

/** Where `brain jobs supervisor` and `brain ingest supervisor` append their events by default. */
export function supervisorEventFiles(home: string): Array<{ supervisor: 'jobs' | 'ingest'; file: string }> {
  return [
    { supervisor: 'jobs', file: join(home, 'supervisor-events.jsonl') },
    { supervisor: 'ingest', file: join(home, 'ingest', 'supervisor-events.jsonl') },
  ]
}

/** A file that is not there yet has no events; anything else unreadable also reads as none. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size
  } catch {
    return 0
  }
}

async function readRange(file: string, from: number, to: number): Promise<string> {
  if (to <= from) return ''
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(to - from)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}

function parseLines(text: string, supervisor: 'jobs' | 'ingest'): SupervisorEventLine[] {
  const events: SupervisorEventLine[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>
      if (typeof parsed.ts === 'string' && typeof parsed.event === 'string') events.push({ ...parsed, supervisor, ts: parsed.ts, event: parsed.event })
    } catch {
      // A half-written last line or a foreign line is skipped, never fatal.
    }
  }
  return events
}

/** Reading at most this much from each file's end keeps a long-lived file cheap to show. */
const TAIL_BYTES = 256 * 1024

/** The newest `limit` events of both supervisors at or after `since` (an ISO time), newest last. */
export async function readRecentEvents(home: string, limit: number, since?: string): Promise<SupervisorEventLine[]> {
  const all: SupervisorEventLine[] = []
  for (const { supervisor, file } of supervisorEventFiles(home)) {
    const size = await sizeOf(file)
    const from = Math.max(0, size - TAIL_BYTES)
    let text = await readRange(file, from, size)
    if (from > 0) text = text.slice(text.indexOf('\n') + 1)
    all.push(...parseLines(text, supervisor))
  }
  const kept = since === undefined ? all : all.filter((e) => e.ts >= since)
  kept.sort((a, b) => a.ts.localeCompare(b.ts))
  return kept.slice(-limit)
}

/**
 * Follows both event files from their current end: each `poll()` returns the lines appended
 * since the last one. A file that shrank (rotated) is followed from its new start.
 */
export class EventFileTail {
  private readonly offsets = new Map<string, number>()
  private readonly partial = new Map<string, string>()

  private constructor(private readonly files: Array<{ supervisor: 'jobs' | 'ingest'; file: string }>) {}

  static async fromEnd(home: string): Promise<EventFileTail> {
    const tail = new EventFileTail(supervisorEventFiles(home))
    for (const { file } of tail.files) tail.offsets.set(file, await sizeOf(file))
    return tail
  }

  async poll(): Promise<SupervisorEventLine[]> {
    const events: SupervisorEventLine[] = []
    for (const { supervisor, file } of this.files) {
      const size = await sizeOf(file)
      let offset = this.offsets.get(file) ?? 0
      if (size < offset) {
        offset = 0
        this.partial.delete(file)
      }
      if (size === offset) continue
      const text = (this.partial.get(file) ?? '') + (await readRange(file, offset, size))
      this.offsets.set(file, size)
      const cut = text.lastIndexOf('\n')
      this.partial.set(file, text.slice(cut + 1))
      events.push(...parseLines(text.slice(0, cut + 1), supervisor))
    }
    return events
  }
}
