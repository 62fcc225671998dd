import { defineJob } from '../src/queue/index.js'

/** The job behind `brain capture`: shapes the content and writes it as a page; the result is the receipt. */
export default defineJob({
  name: 'capture',
  async run(ctx) {
    const { capturePage } = await import('../src/intake/capture/index.js')
    const { content, slug, type, source, captured_at: capturedAt, noEmbed } = ctx.data
    return capturePage({ db: ctx.db, config: ctx.config, logger: ctx.logger }, { content, slug, type, source, capturedAt: capturedAt === undefined ? new Date() : new Date(capturedAt), noEmbed })
  },
})
