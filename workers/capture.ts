import { z } from 'zod'
import { UsageError } from '../src/errors/index.js'
import { defineJob } from '../src/queue/handler.js'

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined)

const data = z.looseObject({
  content: z.string().refine((text) => text.trim() !== ''),
  slug: optionalText,
  type: optionalText,
  source: optionalText,
  captured_at: optionalText.refine((raw) => raw === undefined || !Number.isNaN(new Date(raw).getTime()), 'is not a date'),
  noEmbed: z
    .unknown()
    .optional()
    .transform((flag) => flag === true),
})

/** The job behind `brain capture`: shapes the content and writes it as a page; the result is the receipt. */
export default defineJob({
  name: 'capture',
  data,
  invalid(problem, raw) {
    if (problem.key === 'content') return new UsageError('capture_empty', 'The capture job needs data.content, the text to capture.')
    if (problem.key === 'captured_at' && typeof raw.captured_at === 'string') return new UsageError('invalid_capture_job', `data.captured_at is not a date: ${raw.captured_at}`)
    return new UsageError('invalid_capture_job', `The capture job's data.${problem.key} must be a string.`)
  },
  async run(ctx) {
    const { capturePage } = await import('../src/capture/index.js')
    const { content, slug, type, source, captured_at: capturedAt, noEmbed } = ctx.data
    return capturePage({ db: ctx.db, config: ctx.config, logger: ctx.logger }, { content, slug, type, source, capturedAt: capturedAt === undefined ? new Date() : new Date(capturedAt), noEmbed })
  },
})
