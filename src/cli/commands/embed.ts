import { Command, Option } from 'clipanion'
import type { EmbedRunResult } from '../../embedding/store/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

function summary(result: EmbedRunResult): string {
  if (result.total === 0) return 'Nothing to embed: every chunk has an embedding.'
  const seconds = (result.duration_ms / 1000).toFixed(1)
  const lines = [`embedded ${result.embedded} of ${result.total} chunks with ${result.model} in ${seconds} s`]
  if (result.failed > 0 || result.remaining > 0) {
    lines.push(`${result.failed} failed, ${result.remaining} not attempted; they stay stale (run \`brain embed --stale\` again)`)
  }
  return lines.join('\n')
}

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
    const { runJob } = await import('../job-runner.js')
    const mode = this.stale ? 'stale' : 'all'
    const result = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'embed', { mode }, `embed --${mode}`, this.context.signal))) as EmbedRunResult
    this.print(result, () => summary(result))
    if (result.error && !this.jsonMode) this.context.stderr.write(`brain: ${result.error.message}${result.error.hint ? `\n  hint: ${result.error.hint}` : ''}\n`)
    return result.error && result.embedded === 0 ? 1 : 0
  }
}
