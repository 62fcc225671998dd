import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Writable } from 'node:stream'

type SupervisorEventName =
  | 'supervisor_started'
  | 'worker_started'
  | 'worker_exited'
  | 'worker_restart_scheduled'
  | 'supervisor_gave_up'
  | 'health_warn'
  | 'health_reconnect'
  | 'health_recovered'
  | 'supervisor_stopping'
  | 'supervisor_stopped'

interface SupervisorEvent {
  ts: string
  event: SupervisorEventName
  [field: string]: unknown
}

export type EventSink = (event: SupervisorEventName, fields?: Record<string, unknown>) => void

/**
 * Supervisor events as JSON lines, one object per line with `ts` and `event` first, written to
 * a stream (stdout, for journald) and appended to a file an operator can `tail -f`.
 */
export function jsonLinesSink(options: { stream?: Writable; file?: string | null; now?: () => Date }): EventSink {
  if (options.file) mkdirSync(dirname(options.file), { recursive: true })
  return (event, fields = {}) => {
    const line = JSON.stringify({ ts: (options.now?.() ?? new Date()).toISOString(), event, ...fields }) + '\n'
    options.stream?.write(line)
    if (options.file) {
      try {
        appendFileSync(options.file, line)
      } catch {
        // A full or read-only disk must not take the supervisor down; the stream still has it.
      }
    }
  }
}

/** Collects events in memory, for tests. */
export function memorySink(): EventSink & { events: SupervisorEvent[] } {
  const events: SupervisorEvent[] = []
  const sink = ((event: SupervisorEventName, fields: Record<string, unknown> = {}) => {
    events.push({ ts: new Date().toISOString(), event, ...fields })
  }) as EventSink & { events: SupervisorEvent[] }
  sink.events = events
  return sink
}
