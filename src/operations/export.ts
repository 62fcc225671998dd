import * as z from 'zod'
import { defineOperation, type Operation } from './operation.js'

/** Pages per call: a stretch of the brain small enough for one response. */
const DEFAULT_PAGE_WINDOW = 200

/**
 * The files `brain export` writes, read a stretch at a time: each page as its path (relative to
 * the export folder) and its content, exactly as a local export writes it. A thin client pages
 * through this and writes the files on its own machine.
 */
export const exportFilesTool = defineOperation({
  name: 'export_files',
  description:
    'The markdown files that export the brain (what `brain export` writes, and what import reads back): each page as {path, slug, source_id, page_kind, content}, in source then slug order, `limit` at a time from `offset`. Returns {files, next_offset}; next_offset is null after the last page.',
  input: z.strictObject({
    source: z.string().trim().min(1).max(200).optional().describe('Only pages of this source'),
    prefix: z.string().min(1).max(500).optional().describe('Only slugs starting with this'),
    type: z.string().min(1).max(100).optional().describe('Only pages of this type'),
    include_code: z.boolean().optional().describe('Code pages too (written to their file path)'),
    offset: z.number().int().min(0).optional().describe('Pages to skip (default 0)'),
    limit: z.number().int().min(1).max(1000).optional().describe(`Pages in this call (default ${DEFAULT_PAGE_WINDOW})`),
  }),
  mutating: false,
  async run(ctx, args) {
    const { exportFileOf, pagesToExport } = await import('../export/index.js')
    const { db } = await ctx.brain()
    const offset = args.offset ?? 0
    const limit = args.limit ?? DEFAULT_PAGE_WINDOW
    const filter = { sourceId: args.source, prefix: args.prefix, type: args.type, includeCode: args.include_code }
    const pages = await pagesToExport(db, filter, { offset, limit })
    return { files: pages.map(exportFileOf), next_offset: pages.length < limit ? null : offset + pages.length }
  },
})

export const exportTools: Operation[] = [exportFilesTool]
