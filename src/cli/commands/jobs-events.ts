import { Command, Option } from 'clipanion'
import { setTimeout as sleep } from 'node:timers/promises'
import { UsageError } from '../../errors/index.js'
import { listSupervisorEventsTool, supervisorEventLine } from '../../operations/index.js'
import { toSnakeCaseKeys } from '../../util/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs, fieldOption } from '../operation-command.js'

interface EventLine {
  ts: string
  supervisor: string
  event: string
}

/** How often `--follow` asks for new events: a person watching, not a feed. */
const FOLLOW_INTERVAL_MS = 1000

/** The most one poll may return; a burst bigger than this between two polls is cut to its newest. */
const FOLLOW_BATCH = 1000

/**
 * The face of `list_supervisor_events`: the newest events, and with `--follow` every event as it
 * is written, until Ctrl-C. Each poll is the same operation call, so a thin client follows the
 * server's supervisors with an admin token.
 */
export class JobsEventsCommand extends BrainCommand {
  static override paths = [['jobs', 'events']]
  static override usage = Command.Usage({
    description: 'Show the supervisor events (worker started, exited, restarts, health warnings); --follow keeps printing new ones',
    details:
      'Events of `brain jobs supervisor` and `brain ingest supervisor`, oldest first, from their event files in the brain home (on a thin client: the server’s, with an admin token). With --follow, waits for new events and prints each as it arrives, until Ctrl-C; with --json as well, one JSON object per line.',
    examples: [
      ['The last 20 events', '$0 jobs events --limit 20'],
      ['Watch the supervisors', '$0 jobs events --follow'],
    ],
  })
  limit = fieldOption(listSupervisorEventsTool, 'limit')
  follow = Option.Boolean('--follow,-f', false, { description: 'Keep printing new events until Ctrl-C' })

  protected async run(): Promise<number> {
    const limit = this.limit === undefined ? undefined : Number(this.limit)
    if (limit !== undefined && (this.limit?.trim() === '' || !Number.isInteger(limit))) throw new UsageError('jobs_events_invalid_limit', `--limit must be a whole number, not "${this.limit}".`)
    const first = await this.runOperation(listSupervisorEventsTool, checkedArgs(listSupervisorEventsTool, { limit }, 'jobs_events_'))
    if (!this.follow) {
      await this.present(listSupervisorEventsTool, first)
      return 0
    }
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    try {
      await this.followFrom(first.events as EventLine[], interrupt.signal)
    } finally {
      interrupt.dispose()
    }
    return 0
  }

  /** Prints the events given, then each new one; returns when the signal fires. */
  private async followFrom(initial: EventLine[], signal: AbortSignal): Promise<void> {
    // Events of the newest instant seen: the next poll asks from that instant again and skips them.
    let since: string | undefined
    let seenAtSince = new Set<string>()
    const show = (events: EventLine[]): void => {
      for (const event of events) {
        const key = JSON.stringify(event)
        if (event.ts === since && seenAtSince.has(key)) continue
        if (since === undefined || event.ts > since) {
          since = event.ts
          seenAtSince = new Set()
        }
        seenAtSince.add(key)
        this.context.stdout.write(this.jsonMode ? `${JSON.stringify(toSnakeCaseKeys(event))}\n` : `${supervisorEventLine(event)}\n`)
      }
    }
    // With nothing shown yet, every event the first poll finds is new.
    show(initial)
    while (!signal.aborted) {
      try {
        await sleep(FOLLOW_INTERVAL_MS, undefined, { signal })
      } catch {
        return
      }
      const next = await this.runOperation(listSupervisorEventsTool, { limit: FOLLOW_BATCH, since })
      show(next.events as EventLine[])
    }
  }
}
