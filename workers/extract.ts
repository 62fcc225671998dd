import { deriveLinks } from '../src/links/index.js'
import { defineJob } from '../src/queue/index.js'

/**
 * The `extract` job: derives citation links for the pages it is given. A markdown slug gets its
 * own citations; a code slug gets the links of every markdown page citing it, so a code page
 * arriving after the note is linked. An empty list returns at once.
 */
export default defineJob({
  name: 'extract',
  async run(ctx) {
    const { slugs, sourceId } = ctx.data
    // A code slug is cited by notes in any source, so the source narrows markdown slugs only when no slugs are given.
    return deriveLinks(ctx.db, { slugs, sourceId: slugs === undefined ? sourceId : undefined, signal: ctx.signal })
  },
})
