import { UsageError } from '../src/errors/index.js'
import type { JobHandler } from '../src/queue/handler.js'

function optionalString(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new UsageError('invalid_capture_job', `The capture job's data.${key} must be a string.`)
  return value
}

/** The job behind `brain capture`: shapes the content and writes it as a page; the result is the receipt. */
const captureHandler: JobHandler = async (ctx) => {
  const content = ctx.data.content
  if (typeof content !== 'string' || content.trim() === '') {
    throw new UsageError('capture_empty', 'The capture job needs data.content, the text to capture.')
  }
  const capturedAtRaw = optionalString(ctx.data, 'captured_at')
  const capturedAt = capturedAtRaw === undefined ? new Date() : new Date(capturedAtRaw)
  if (Number.isNaN(capturedAt.getTime())) throw new UsageError('invalid_capture_job', `data.captured_at is not a date: ${capturedAtRaw}`)
  const { capturePage } = await import('../src/capture/index.js')
  return capturePage(
    { db: ctx.db, config: ctx.config, logger: ctx.logger },
    {
      content,
      slug: optionalString(ctx.data, 'slug'),
      type: optionalString(ctx.data, 'type'),
      source: optionalString(ctx.data, 'source'),
      capturedAt,
      noEmbed: ctx.data.noEmbed === true,
    },
  )
}

export default captureHandler
