import * as z from 'zod'
import { NotFoundError, isBrainError } from '../errors/index.js'
import { slugText } from './pages.js'
import { defineOperation, type Operation } from './operation.js'

const source = z.string().trim().min(1).max(200).optional().describe('Source id (default: every source)')

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`
}

const listTrashTool = defineOperation({
  name: 'list_trash',
  description: 'Deleted pages waiting in the trash, most recently deleted first: trash id, slug, source, title, when, through what and by whom. Restore one with restore_page.',
  input: z.strictObject({
    source,
    slug_prefix: z.string().max(512).optional(),
    limit: z.number().int().min(1).max(100_000).optional().describe('At most this many (default 100)'),
  }),
  mutating: false,
  async run(ctx, args) {
    const { listTrash } = await import('../history/index.js')
    const { db } = await ctx.brain()
    const entries = await listTrash(db, { sourceId: args.source, slugPrefix: args.slug_prefix, limit: args.limit ?? 100 })
    return {
      pages: entries.map((e) => ({
        trash_id: e.trashId,
        slug: e.slug,
        source_id: e.sourceId,
        title: e.title,
        type: e.type,
        kind: e.pageKind,
        deleted_at: e.deletedAt,
        deleted_via: e.deletedVia,
        deleted_by: e.deletedBy,
        bytes: e.bytes,
      })),
    }
  },
  present: {
    text: (result) => {
      const { pages } = result as unknown as { pages: Array<{ trashId: number; deletedAt: string; slug: string; sourceId: string; bytes: number; deletedVia: string | null }> }
      if (pages.length === 0) return 'The trash is empty.'
      return pages
        .map(
          (p) =>
            `${String(p.trashId).padStart(5)}  ${String(p.deletedAt).replace('T', ' ').slice(0, 19)}  ${p.slug}${p.sourceId === 'default' ? '' : ` (${p.sourceId})`}  ${sizeText(p.bytes)}  via ${p.deletedVia ?? '-'}`,
        )
        .join('\n')
    },
  },
  cli: {
    path: ['trash', 'list'],
    description: 'List deleted pages waiting in the trash',
    options: [
      { field: 'source', flag: '--source', kind: 'string', description: 'Only pages of this source' },
      { field: 'slug_prefix', flag: '--slug-prefix', kind: 'string', description: 'Only slugs starting with this' },
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many (default 100)' },
    ],
    integerErrorPrefix: 'trash_',
  },
})

const restorePageTool = defineOperation({
  name: 'restore_page',
  description:
    'Bring a deleted page back from the trash, by slug (the most recently deleted page with it) or by trash id: with its chunks, tags, links, embeddings and history. When its slug was taken meanwhile it comes back under a new one, given in the result (renamed: true).',
  input: z.strictObject({ page: slugText.describe('Slug or trash id'), source }),
  mutating: true,
  async run(ctx, args) {
    const { restoreFromTrash } = await import('../history/index.js')
    const { db } = await ctx.brain()
    let restored
    try {
      restored = await restoreFromTrash(db, { slug: args.page, sourceId: args.source })
    } catch (err) {
      if (!(isBrainError(err) && err.code === 'trash_entry_not_found' && /^\d+$/.test(args.page))) throw err
      restored = await restoreFromTrash(db, { trashId: Number(args.page) })
      if (args.source !== undefined && restored.sourceId !== args.source) throw new NotFoundError('trash_entry_not_found', `Trash entry ${args.page} is not of source ${args.source}.`)
    }
    return {
      slug: restored.restoredSlug,
      original_slug: restored.slug,
      renamed: restored.renamed,
      source_id: restored.sourceId,
      page_id: restored.pageId,
      trash_id: restored.trashId,
      chunks: restored.chunks,
      links: restored.links,
    }
  },
  present: {
    text: (result) => {
      const r = result as unknown as { renamed: boolean; originalSlug: string; slug: string; chunks: number }
      return r.renamed ? `restored ${r.originalSlug} as ${r.slug} (the slug was taken meanwhile; ${r.chunks} chunks)` : `restored ${r.slug} (${r.chunks} chunks)`
    },
  },
  cli: {
    path: ['trash', 'restore'],
    description: 'Bring a deleted page back from the trash',
    details: 'Names the page by slug (the most recently deleted page with it) or by the trash id `brain trash list` shows.',
    examples: [['Restore a note', '$0 trash restore notes/idea']],
    positional: { field: 'page', required: true },
    options: [{ field: 'source', flag: '--source', kind: 'string', description: 'Source id, when the slug was deleted from more than one' }],
  },
})

const purgeTrashTool = defineOperation({
  name: 'purge_trash',
  description: 'Empty the trash for good: every entry, or those deleted longer ago than older_than (e.g. 30d, 12h). Needs the admin scope.',
  input: z.strictObject({ older_than: z.string().trim().min(1).max(40).optional().describe('A duration: 30d, 12h, 90min') }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { purgeTrash } = await import('../history/index.js')
    const { parseDurationMs } = await import('../config/index.js')
    const { db } = await ctx.brain()
    const olderThanMs = args.older_than === undefined ? null : parseDurationMs('--older-than', args.older_than, 0)
    if (ctx.dryRun) return { purged: 0, versions_removed: 0, dry_run: true }
    const purged = await purgeTrash(db, olderThanMs)
    return { purged: purged.purged, versions_removed: purged.versionsRemoved }
  },
  present: { text: (r) => `purged ${r.purged} page${r.purged === 1 ? '' : 's'} from the trash` },
  cli: {
    path: ['trash', 'purge'],
    description: 'Remove pages from the trash for good',
    examples: [['Purge what was deleted over a week ago', '$0 trash purge --older-than 7d']],
    options: [{ field: 'older_than', flag: '--older-than', kind: 'string', description: 'Only entries deleted longer ago than this (30d, 12h, 90min)' }],
  },
})

export const trashTools: Operation[] = [listTrashTool, restorePageTool, purgeTrashTool]
