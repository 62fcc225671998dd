import * as z from 'zod'
import { defineOperation, type Operation } from './operation.js'

const listTagsTool = defineOperation({
  name: 'list_tags',
  description: 'List the tags in use with how many pages carry each, most used first. Use it to browse by topic; list_pages with tag=… lists the pages of one.',
  input: z.strictObject({ limit: z.number().int().min(1).max(10_000).optional().describe('At most this many (default 500)') }),
  mutating: false,
  async run(ctx, args) {
    const { listTagCounts } = await import('../pages/index.js')
    return { tags: await listTagCounts((await ctx.brain()).db, args.limit ?? 500) }
  },
  present: {
    json: (r) => r.tags,
    text: (r) => (r.tags.length === 0 ? 'No tags.' : r.tags.map((t) => `${String(t.pages).padStart(6)}  ${t.tag}`).join('\n')),
  },
  cli: {
    path: ['tags'],
    description: 'List the tags in use, with how many pages carry each',
    options: [{ field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many (default 500)' }],
  },
})

export const tagTools: Operation[] = [listTagsTool]
