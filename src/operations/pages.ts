import * as z from 'zod'
import { ConfirmationRequired, NotFoundError, ValidationError } from '../errors/index.js'
import type { CallContext } from './call-context.js'
import type { Page } from '../pages/index.js'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation, type Operation } from './operation.js'

export const MAX_CONTENT_CHARS = 5 * 1024 * 1024
/** A slug as a caller types it; composed (NFC) as stored slugs are, so a pasted macOS file name finds its page. */
export const slugText = z.string().trim().normalize('NFC').min(1).max(512)
export const slug = slugText.describe('Page slug, e.g. notes/2024-05-02-standup (no .md)')
const source = z.string().trim().min(1).max(200).optional().describe('Source id (default: default)')
const pageSource = z.string().trim().min(1).max(200).optional().describe('Source id; needed only when the slug exists in more than one source')

/** What a page write needs, from an operation's context. */
export async function pageWriteContext(ctx: CallContext, noEmbed: boolean) {
  const { readConfigValue } = await import('../config/index.js')
  const { activeEmbeddingProvider } = await import('../models/index.js')
  const { db, config } = await ctx.brain()
  return {
    db,
    logger: ctx.logger,
    repoPath: await readConfigValue(db, 'sync.repo_path'),
    remote: ctx.remote,
    dryRun: ctx.dryRun,
    allowedSlugPrefixes: ctx.remote ? ctx.remoteSlugPrefixes : null,
    embedder: noEmbed ? null : await activeEmbeddingProvider(db, config),
    caller: ctx.caller ?? null,
    maxFences: config.import.maxFencesPerPage,
  }
}

type ShownChunk = {
  chunkIndex: number
  chunkText: string
  chunkSource: string
  language: string | null
  symbolType: string | null
  symbolName: string | null
  symbolNameQualified: string | null
  startLine: number | null
  endLine: number | null
  embedded: boolean
}

/** A page as markdown, or its chunks, one block each with what is known about it. */
async function formatPage(result: JsonCamelCased<Page & { chunks?: ShownChunk[] }>): Promise<string> {
  if (!result.chunks) return (await import('../pages/serialize.js')).serializePage(result)
  return result.chunks
    .map((c) => {
      const meta = [c.chunkSource, c.language, c.symbolType, c.symbolNameQualified ?? c.symbolName, c.startLine ? `L${c.startLine}-${c.endLine}` : null, c.embedded ? 'embedded' : 'not embedded']
      return `--- chunk ${c.chunkIndex} (${meta.filter(Boolean).join(', ')})\n${c.chunkText}`
    })
    .join('\n')
}

function pageNotFound(slugText: string): NotFoundError {
  return new NotFoundError('page_not_found', `No page ${slugText}.`, { hint: 'Find pages with list_pages or search.' })
}

export const putPageTool = defineOperation({
  name: 'put_page',
  description:
    'Save a whole markdown page (YAML front matter optional) under a slug you choose, creating or replacing it; for a quick note without a slug call capture. Returns slug, status (created, updated or skipped when identical) and content_hash.',
  input: z.strictObject({
    slug,
    content: z.string().min(1).max(MAX_CONTENT_CHARS).describe('The whole page as markdown, front matter included'),
    source,
    no_embed: z.boolean().optional().describe('Store without embeddings (default false)'),
    expected_content_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .describe('Write only if the page still has this content_hash (else write_conflict, nothing written)'),
    dry_run: z.boolean().optional().describe('Report what the write would do, without writing'),
  }),
  mutating: true,
  memory: true,
  async run(ctx, args) {
    const { putPage } = await import('../pages/index.js')
    // An argument, not only the caller's context, so a thin client's --dry-run reaches the server.
    const dryRun = ctx.dryRun || args.dry_run === true
    const result = await putPage(await pageWriteContext({ ...ctx, dryRun }, args.no_embed ?? false), {
      slug: args.slug,
      content: args.content,
      sourceId: args.source,
      expectedContentHash: args.expected_content_hash,
    })
    return { ...result }
  },
  present: {
    text: (result) => {
      const written = result.writeThrough
      return result.status === 'skipped' ? `skipped ${result.slug} (unchanged)` : `${result.status} ${result.slug} (${result.chunks} chunks)${written.written ? ` -> ${written.path}` : ''}`
    },
  },
})

export const getPageTool = defineOperation({
  name: 'get_page',
  description: 'Read one page by its exact slug: body (compiled_truth), front matter, tags and timeline. Call search or query first when you do not know the slug.',
  input: z.strictObject({ slug, source, chunks: z.boolean().optional().describe('Include the stored chunks') }),
  mutating: false,
  memory: true,
  async run(ctx, args) {
    const { findPage, listChunks, resolvePageRef } = await import('../pages/index.js')
    const { db } = await ctx.brain()
    // As every command that names a page: any source, as long as the slug is in only one.
    const ref = await resolvePageRef(db, args.slug, args.source)
    const page = await findPage(db, ref.sourceId, ref.slug)
    if (!page) throw pageNotFound(args.slug)
    return args.chunks ? { ...page, chunks: await listChunks(db, page.id) } : { ...page }
  },
  present: { text: formatPage },
})

const listPagesTool = defineOperation({
  name: 'list_pages',
  description: 'Browse pages newest first, filtered by type, tag, kind, source or slug prefix. To find pages by what they say, call search or query.',
  input: z.strictObject({
    type: z.string().max(100).optional(),
    tag: z.string().max(200).optional(),
    kind: z.enum(['markdown', 'code']).optional(),
    source,
    slug_prefix: z.string().max(512).optional(),
    limit: z.number().int().min(1).max(100_000).optional().describe('At most this many (default 50)'),
    offset: z.number().int().min(0).max(100000).optional(),
  }),
  mutating: false,
  memory: true,
  async run(ctx, args) {
    const { listPages } = await import('../pages/index.js')
    const { db } = await ctx.brain()
    const pages = await listPages(db, { type: args.type, tag: args.tag, pageKind: args.kind, sourceId: args.source, slugPrefix: args.slug_prefix, limit: args.limit ?? 50, offset: args.offset })
    return { pages }
  },
  present: {
    json: (result) => result.pages,
    text: (result) => (result.pages.length === 0 ? 'No pages.' : result.pages.map((p) => `${p.slug}  ${p.title}  (${p.type}${p.tags.length ? `; ${p.tags.join(', ')}` : ''})`).join('\n')),
  },
  cli: {
    path: ['list'],
    description: 'List pages, newest first',
    options: [
      { field: 'type', flag: '--type', kind: 'string', description: 'Only pages of this type' },
      { field: 'tag', flag: '--tag', kind: 'string', description: 'Only pages with this tag' },
      { field: 'kind', flag: '--kind', kind: 'string', description: 'markdown or code' },
      { field: 'source', flag: '--source', kind: 'string', description: 'Source id (default: every source)' },
      { field: 'slug_prefix', flag: '--slug-prefix', kind: 'string', description: 'Only slugs starting with this' },
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many pages (default 50)' },
      { field: 'offset', flag: '--offset', kind: 'integer', description: 'Pages to skip (default 0)' },
    ],
  },
})

const deletePageTool = defineOperation({
  name: 'delete_page',
  description:
    'Delete one page by slug: it moves to the trash with its chunks, tags and links, leaves search and listings at once, and can be brought back with restore_page. The page file on disk (if any) is left alone. hard=true removes it for good (local callers only, with yes=true).',
  input: z.strictObject({
    slug,
    source: z.string().trim().min(1).max(200).optional().describe('Source id; needed only when the slug exists in more than one source'),
    hard: z.boolean().optional().describe('Remove for good instead of moving to the trash'),
    yes: z.boolean().optional().describe('Confirm a hard delete'),
  }),
  mutating: true,
  async run(ctx, args) {
    const { resolvePageRef } = await import('../pages/index.js')
    const { trashPages, hardDeletePages } = await import('../history/index.js')
    const { db } = await ctx.brain()
    const ref = await resolvePageRef(db, args.slug, args.source)
    const base = { slug: ref.slug, source_id: ref.sourceId }
    if (args.hard) {
      if (ctx.remote)
        throw new ValidationError('hard_delete_local_only', 'A hard delete cannot be undone, so only a local caller may ask for one.', { hint: 'Delete without hard: the page goes to the trash.' })
      if (!args.yes) {
        throw new ConfirmationRequired('hard_delete_unconfirmed', `Deleting ${ref.slug} for good cannot be undone.`, {
          hint: `Run \`brain delete ${ref.slug} --hard --yes\`, or leave out --hard to move it to the trash.`,
        })
      }
    }
    if (ctx.dryRun) return { ...base, deleted: false, trashed: false, trash_id: null, dry_run: true }
    if (args.hard) {
      await db.transaction((tx) => hardDeletePages(tx, [ref.id]))
      return { ...base, deleted: true, trashed: false, trash_id: null, dry_run: false }
    }
    const [entry] = await db.transaction((tx) => trashPages(tx, [ref.id], { via: ctx.remote ? 'mcp:delete_page' : 'delete', by: ctx.caller ?? null }))
    return { ...base, deleted: true, trashed: true, trash_id: entry?.trashId ?? null, dry_run: false }
  },
  present: {
    text: (result) => {
      const r = result as unknown as { dryRun: boolean; trashed: boolean; slug: string }
      return r.dryRun ? `would delete ${r.slug}` : r.trashed ? `moved ${r.slug} to the trash (restore with \`brain trash restore ${r.slug}\`)` : `deleted ${r.slug} for good`
    },
  },
  cli: {
    path: ['delete'],
    description: 'Delete a page (to the trash; --hard for good)',
    details: 'The page moves to the trash with its chunks, tags, links and embeddings and can be restored with `brain trash restore`. --hard removes it for good and asks for --yes.',
    examples: [
      ['Delete a note', '$0 delete notes/old'],
      ['Delete for good', '$0 delete notes/old --hard --yes'],
    ],
    positional: { field: 'slug', required: true },
    options: [
      { field: 'source', flag: '--source', kind: 'string', description: 'Source id; needed only when the slug exists in more than one source' },
      { field: 'hard', flag: '--hard', kind: 'boolean', description: 'Remove for good instead of moving to the trash' },
      { field: 'yes', flag: '--yes', kind: 'boolean', description: 'Confirm a hard delete' },
    ],
  },
})

function tagTool(name: 'add_tag' | 'remove_tag', adding: boolean): Operation {
  return defineOperation({
    name,
    description: adding
      ? 'Add a tag to a page (idempotent). Returns {slug, tag, changed}; changed is false when the page already had it.'
      : 'Remove a tag from a page (idempotent). Returns {slug, tag, changed}; changed is false when the page did not have it.',
    input: z.strictObject({ slug, tag: z.string().trim().min(1).max(200), source: pageSource }),
    mutating: true,
    async run(ctx, args) {
      const { resolvePageRef, changePageTag } = await import('../pages/index.js')
      const { db } = await ctx.brain()
      // As every command that names a page: any source, as long as the slug is in only one.
      const page = await resolvePageRef(db, args.slug, args.source)
      const changed = await changePageTag(db, page.id, args.tag, adding, name)
      return { slug: args.slug, tag: args.tag, changed }
    },
    present: { text: (r) => `${adding ? 'tagged' : 'untagged'} ${r.slug} ${r.tag}${r.changed ? '' : ' (no change)'}` },
    cli: {
      path: [adding ? 'tag' : 'untag'],
      description: adding ? 'Add a tag to a page' : 'Remove a tag from a page',
      positional: { field: 'slug', required: true, then: [{ field: 'tag', required: true }] },
      options: [{ field: 'source', flag: '--source', kind: 'string', description: 'Source id; needed only when the slug exists in more than one source' }],
    },
  })
}

const addTagTool = tagTool('add_tag', true)
const removeTagTool = tagTool('remove_tag', false)

export const pageTools: Operation[] = [putPageTool, getPageTool, listPagesTool, deletePageTool, addTagTool, removeTagTool]
