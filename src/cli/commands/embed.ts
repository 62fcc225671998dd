import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { embedChunksTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

/** The face of the `embed_chunks` operation: the mode as two switches, progress on a terminal, Ctrl-C stops waiting. */
export class EmbedCommand extends BrainCommand {
  static override paths = [['embed']]
  static override usage = Command.Usage({
    description: 'Compute chunk embeddings with the configured provider (runs as an `embed` job)',
    details:
      '--stale embeds only chunks without an embedding (after an import with --no-embed or a provider outage) and leaves every other chunk as it is. --all re-embeds every chunk, page by page: use it after changing the embedding provider or model, because search compares only vectors of the active model.',
    examples: [
      ['Fill in missing embeddings', '$0 embed --stale'],
      ['Re-embed everything with the current provider', '$0 embed --all'],
    ],
  })

  stale = Option.Boolean('--stale', false, { description: 'Embed chunks that have no embedding' })
  all = Option.Boolean('--all', false, { description: 'Re-embed every chunk' })

  protected async run(): Promise<number> {
    if (this.stale === this.all) {
      throw new UsageError('embed_requires_mode', this.stale ? 'Give --stale or --all, not both.' : 'Say what to embed: --stale or --all.', {
        hint: 'brain embed --stale (missing embeddings) | brain embed --all (everything)',
      })
    }
    const { progressPrinter } = await import('../job-runner.js')
    const mode = this.stale ? 'stale' : 'all'
    const progress = progressPrinter(this.context.stderr, `embed --${mode}`)
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    let result: Record<string, unknown>
    try {
      result = await this.runOperation(embedChunksTool, checkedArgs(embedChunksTool, { mode }), { onProgress: progress.update, signal: interrupt.signal })
    } finally {
      progress.finish()
      interrupt.dispose()
    }
    await this.present(embedChunksTool, result)
    const error = result.error as { message: string; hint?: string } | null
    if (error && !this.jsonMode) this.context.stderr.write(`brain: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}\n`)
    return error && result.embedded === 0 ? 1 : 0
  }
}
