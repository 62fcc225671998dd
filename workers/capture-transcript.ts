import { z } from 'zod'
import { UsageError } from '../src/errors/index.js'
import { defineJob } from '../src/queue/handler.js'

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null)

const data = z.looseObject({
  transcript_path: z.string().min(1),
  session_id: optionalText,
  harness: z.string().min(1).default('claude-code'),
  cwd: optionalText,
  noEmbed: z
    .unknown()
    .optional()
    .transform((flag) => flag === true),
})

/** The job an agent's Stop or PreCompact hook submits: its session transcript becomes a session page. */
export default defineJob({
  name: 'capture_transcript',
  data,
  invalid(problem) {
    if (problem.key === 'transcript_path') return new UsageError('invalid_capture_transcript_job', 'The capture_transcript job needs data.transcript_path, the absolute path of the session log.')
    return new UsageError('invalid_capture_transcript_job', `The capture_transcript job's data.${problem.key} is not valid: ${problem.message}`)
  },
  async run(ctx) {
    const { captureTranscript } = await import('../src/agents/index.js')
    const d = ctx.data
    return captureTranscript({ db: ctx.db, config: ctx.config, logger: ctx.logger }, { transcriptPath: d.transcript_path, sessionId: d.session_id, harness: d.harness, cwd: d.cwd, noEmbed: d.noEmbed })
  },
})
