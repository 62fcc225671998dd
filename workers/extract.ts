import { z } from 'zod'
import { deriveLinks } from '../src/links/index.js'
import { ValidationError } from '../src/errors/index.js'
import { defineJob } from '../src/queue/handler.js'

const data = z.looseObject({
  /** Pages to derive links for; all pages when absent, nothing when empty. */
  slugs: z.array(z.string()).optional(),
  sourceId: z
    .unknown()
    .optional()
    .transform((id) => (typeof id === 'string' ? id : undefined)),
})

/**
 * The `extract` job: derives citation links for the pages it is given. A markdown slug gets its
 * own citations; a code slug gets the links of every markdown page citing it, so a code page
 * arriving after the note is linked. An empty list returns at once.
 */
export default defineJob({
  name: 'extract',
  data,
  invalid: () => new ValidationError('extract_invalid_slugs', 'extract expects `slugs` to be a list of page slugs.', { hint: 'e.g. {"slugs": ["notes/design"]}' }),
  async run(ctx) {
    const { slugs, sourceId } = ctx.data
    // A code slug is cited by notes in any source, so the source narrows markdown slugs only when no slugs are given.
    return deriveLinks(ctx.db, { slugs, sourceId: slugs === undefined ? sourceId : undefined, signal: ctx.signal })
  },
})
