import { Command, Option } from 'clipanion'
import type { CostPreview, GateOutcome } from '../../intake/sync/index.js'
import { UsageError } from '../../errors/index.js'
import { syncExitCode, syncTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs, fieldOption, fieldSwitch } from '../operation-command.js'
import { isTerminal } from '../output.js'

/**
 * The face of the `sync` operation: its flags fill the operation's input, and the command adds
 * what only a terminal has: the cost gate of `--all`, progress, and Ctrl-C. On a thin client the
 * preview and the sync are calls of the remote brain's tool.
 */
export class SyncCommand extends BrainCommand {
  static override paths = [['sync']]
  static override usage = Command.Usage({
    description: 'Import what changed in git-backed sources since their bookmark (runs as a `sync` job)',
    details: [
      'Pages follow committed content: the first sync walks the tree at HEAD, later ones import what `git diff <bookmark>..HEAD` reports (renames move pages, deletions remove them); uncommitted edits are picked up once committed.',
      "With --source or --all the bookmark is the source's last_commit; with a directory (--repo, or the configured sync.repo_path) it is the bookmark of the source registered for that directory, else the global sync.last_commit.",
      'A file that fails is reported and retried by the next sync. `sync --all` first shows a cost preview of the embeddings and asks: --yes proceeds, --dry-run only prints it, --no-embed skips it.',
    ].join('\n\n'),
    examples: [
      ['Sync the brain repository', '$0 sync --repo ~/brain'],
      ['Sync one source', '$0 sync --source notes'],
      ['Sync every source without asking', '$0 sync --all --yes'],
      ['See what a full re-sync would do', '$0 sync --source notes --full --dry-run'],
    ],
  })

  source = fieldOption(syncTool, 'source')
  all = fieldSwitch(syncTool, 'all')
  repo = fieldOption(syncTool, 'repo')
  full = fieldSwitch(syncTool, 'full')
  dryRun = fieldSwitch(syncTool, 'dry_run')
  yes = Option.Boolean('--yes', false, { description: 'Skip the cost confirmation of --all' })
  noEmbed = fieldSwitch(syncTool, 'no_embed')

  protected async run(): Promise<number> {
    const repo = this.repo === undefined ? undefined : this.resolvePath(this.repo)
    const target = this.source === undefined && !this.all && repo === undefined ? { configured_repo: true } : { source: this.source, all: this.all || undefined, repo }
    const args = checkedArgs(syncTool, { ...target, full: this.full || undefined, dry_run: this.dryRun || undefined, no_embed: this.noEmbed || undefined })
    if (this.all && !this.noEmbed) {
      const gate = await this.costGate(args)
      if (gate === 'preview_only') return 0
      if (gate === 'declined') {
        this.context.stderr.write('brain: sync cancelled; nothing was changed.\n')
        return 1
      }
    }
    const { progressPrinter } = await import('../job-runner.js')
    const progress = progressPrinter(this.context.stderr, 'syncing')
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    let result: Record<string, unknown>
    try {
      result = await this.runOperation(syncTool, args, { onProgress: progress.update, signal: interrupt.signal })
    } finally {
      progress.finish()
      interrupt.dispose()
    }
    await this.present(syncTool, result)
    return syncExitCode(result)
  }

  /** The preview and the gate of `sync --all`; a preview-only run prints the preview as the result. */
  private async costGate(args: Record<string, unknown>): Promise<GateOutcome> {
    const { runGate } = await import('../../intake/sync/index.js')
    const previewed = await this.runOperation(syncTool, { ...args, preview: true })
    const stdin = this.context.stdin as NodeJS.ReadableStream & { isTTY?: boolean }
    const outcome = await runGate(
      previewed.preview as CostPreview,
      { yes: this.yes, dryRun: this.dryRun, json: this.jsonMode, interactive: isTerminal(this.context.stdout) && stdin.isTTY === true },
      { show: (text) => this.context.stderr.write(`${text}\n`), prompt: (question) => this.askLine(question) },
    )
    if (outcome === 'preview_only') await this.present(syncTool, previewed)
    return outcome
  }
}
