import * as z from 'zod'
import { UsageError } from '../errors/index.js'
import { AUTOPILOT_PHASES } from '../queue/autopilot-phases.js'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation } from './operation.js'

interface PhaseLine {
  phase: string
  status: string
  reason?: string
  duration_ms: number
}

function phaseLines(report: JsonCamelCased<{ phases: PhaseLine[] }>): string {
  return report.phases.map((p) => `${p.phase.padEnd(19)} ${p.status.padEnd(9)} ${p.reason ?? ''}`.trimEnd() + ` (${p.durationMs} ms)`).join('\n')
}

/**
 * One autopilot cycle now, as an `autopilot-cycle` job the caller waits for. Admin: it runs every
 * maintenance phase, the backup among them.
 */
export const runAutopilotCycleTool = defineOperation({
  name: 'run_autopilot_cycle',
  description: `Run one autopilot cycle now and wait for it: ${AUTOPILOT_PHASES.join(', ')}, in that order, or only the phase given. A phase that cannot run here is skipped with its reason, one that fails is reported and the rest still run. Returns {phases: [{phase, status, reason, duration_ms}]}.`,
  input: z.strictObject({
    phase: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe(`Run only this phase: ${AUTOPILOT_PHASES.join(', ')}`),
    dir: z.string().trim().min(1).max(4096).optional().describe('Brain directory to sync, an absolute path on the brain host (default: sync.repo_path)'),
  }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { openQueue, selectPhases } = await import('../queue/index.js')
    const data: Record<string, unknown> = {}
    if (args.phase !== undefined) data.phase = args.phase
    if (args.dir !== undefined) {
      if (ctx.remote) throw new UsageError('dream_dir_not_allowed_remotely', 'A directory cannot be named over HTTP.', { hint: 'Leave dir out: the cycle syncs sync.repo_path of the brain host.' })
      data.dir = args.dir
    }
    // Checked before the job is queued, so a typo is a usage error rather than a dead job.
    selectPhases(data)
    const { db, config } = await ctx.brain()
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      const job = await queue.submitAndWait('autopilot-cycle', data, { onProgress: ctx.onProgress, signal: ctx.signal })
      return { ...(job.result as { phases: PhaseLine[] }) }
    } finally {
      await queue.close()
    }
  },
  present: { text: phaseLines },
})
