import * as z from 'zod'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation } from './operation.js'

/** What an `embed` job returns (the embedding store's run result, as the job hands it over). */
interface EmbedRun {
  mode: 'stale' | 'all'
  model: string
  total: number
  embedded: number
  failed: number
  remaining: number
  error: { class: string; code: string; message: string; hint?: string } | null
  duration_ms: number
}

function summary(result: JsonCamelCased<EmbedRun>): string {
  if (result.total === 0) return 'Nothing to embed: every chunk has an embedding.'
  const seconds = (result.durationMs / 1000).toFixed(1)
  const lines = [`embedded ${result.embedded} of ${result.total} chunks with ${result.model} in ${seconds} s`]
  if (result.failed > 0 || result.remaining > 0) {
    lines.push(`${result.failed} failed, ${result.remaining} not attempted; they stay stale (run \`brain embed --stale\` again)`)
  }
  return lines.join('\n')
}

export const embedChunksTool = defineOperation({
  name: 'embed_chunks',
  description:
    'Compute chunk embeddings with the configured provider as an `embed` job, and wait for it. mode "stale" embeds only chunks without an embedding (after an import without embeddings or a provider outage); "all" re-embeds every chunk (after changing the embedding model). Returns {mode, model, total, embedded, failed, remaining, error, duration_ms}.',
  input: z.strictObject({ mode: z.enum(['stale', 'all']).describe('stale: chunks without an embedding; all: every chunk') }),
  mutating: true,
  async run(ctx, args) {
    const { openQueue } = await import('../queue/index.js')
    const { db, config } = await ctx.brain()
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      const job = await queue.submitAndWait('embed', { mode: args.mode }, { onProgress: ctx.onProgress, signal: ctx.signal })
      return { ...(job.result as EmbedRun) }
    } finally {
      await queue.close()
    }
  },
  present: { text: summary },
})
