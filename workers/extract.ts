import { deriveLinks } from '../src/links/index.js'
import { ValidationError } from '../src/errors/index.js'
import type { JobHandler } from '../src/queue/handler.js'

export interface ExtractJobData {
  /** Pages to derive links for; all pages when absent, nothing when empty. */
  slugs?: string[]
  sourceId?: string
}

function slugsOf(data: Record<string, unknown>): string[] | undefined {
  if (data.slugs === undefined) return undefined
  if (!Array.isArray(data.slugs) || data.slugs.some((s) => typeof s !== 'string')) {
    throw new ValidationError('extract_invalid_slugs', 'extract expects `slugs` to be a list of page slugs.', { hint: 'e.g. {"slugs": ["notes/design"]}' })
  }
  return data.slugs as string[]
}

/**
 * The `extract` job: derives citation links for the pages it is given. A markdown slug gets its
 * own citations; a code slug gets the links of every markdown page citing it, so a code page
 * arriving after the note is linked. An empty list returns at once.
 */
const handler: JobHandler = async (ctx) => {
  const slugs = slugsOf(ctx.data)
  const sourceId = typeof ctx.data.sourceId === 'string' ? ctx.data.sourceId : undefined
  // A code slug is cited by notes in any source, so the source narrows markdown slugs only when no slugs are given.
  return deriveLinks(ctx.db, { slugs, sourceId: slugs === undefined ? sourceId : undefined, signal: ctx.signal })
}

export default handler
