import { defineJob } from '../src/queue/index.js'

/** The job an agent's Stop or PreCompact hook submits: its session transcript becomes a session page. */
export default defineJob({
  name: 'capture_transcript',
  async run(ctx) {
    const { captureTranscript } = await import('../src/agents/index.js')
    const d = ctx.data
    return captureTranscript(
      { db: ctx.db, config: ctx.config, logger: ctx.logger },
      { transcriptPath: d.transcript_path, sessionId: d.session_id, harness: d.harness, cwd: d.cwd, sourceId: d.source, noEmbed: d.noEmbed },
    )
  },
})
