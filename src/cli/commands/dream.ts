import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'

interface PhaseLine {
  phase: string
  status: string
  reason?: string
  duration_ms: number
}

export class DreamCommand extends BrainCommand {
  static override paths = [['dream']]
  static override usage = Command.Usage({
    description: 'Run one autopilot cycle now: sync, extract, embed, reconcile-links, frontmatter-audit, queue-housekeeping, backup',
    details: 'With --phase, only that phase runs. `--phase sync` alone keeps the extraction sync does itself; in a full cycle, extraction is left to the extract phase.',
    examples: [
      ['A full cycle', '$0 dream'],
      ['Only sync', '$0 dream --phase sync'],
    ],
  })
  phase = Option.String('--phase', { description: 'Run only this phase' })
  dir = Option.String('--dir', { description: 'Brain directory (default: sync.repo_path)' })

  protected async run(): Promise<number> {
    const { runJob } = await import('../job-runner.js')
    const { selectPhases } = await import('../../../workers/autopilot/phases.js')
    const data: Record<string, unknown> = {}
    if (this.phase !== undefined) data.phase = this.phase
    if (this.dir !== undefined) data.dir = this.resolvePath(this.dir)
    selectPhases(data)
    const report = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'autopilot-cycle', data, 'dream', this.context.signal))) as { phases: PhaseLine[] }
    this.print(report, () => report.phases.map((p) => `${p.phase.padEnd(19)} ${p.status.padEnd(9)} ${p.reason ?? ''}`.trimEnd() + ` (${p.duration_ms} ms)`).join('\n'))
    return 0
  }
}
