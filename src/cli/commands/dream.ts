import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { runAutopilotCycleTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

/** The face of the `run_autopilot_cycle` operation: `--dir` from this directory, progress on a terminal, Ctrl-C stops waiting. */
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
    const { progressPrinter } = await import('../job-runner.js')
    const args = { phase: this.phase, dir: this.dir === undefined ? undefined : this.resolvePath(this.dir) }
    const progress = progressPrinter(this.context.stderr, 'dream')
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    let result: Record<string, unknown>
    try {
      result = await this.runOperation(runAutopilotCycleTool, checkedArgs(runAutopilotCycleTool, args), { onProgress: progress.update, signal: interrupt.signal })
    } finally {
      progress.finish()
      interrupt.dispose()
    }
    await this.present(runAutopilotCycleTool, result)
    return 0
  }
}
