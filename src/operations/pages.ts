import { z } from 'zod'
import { NotFoundError } from '../errors/index.js'
import type { OperationContext } from './context.js'
import { defineOperation, type Operation } from './operation.js'

const MAX_CONTENT_CHARS = 5 * 1024 * 1024
const slug = z.string().trim().min(1).max(512).describe('Page slug, e.g. notes/2024-05-02-standup (no .md)')
const source = z.string().trim().min(1).max(200).optional().describe('Source id (default: default)')

async function writeContext(ctx: OperationContext, noEmbed: boolean) {
  const { readConfigValue } = await import('../config/index.js')
  const { embeddingProviderFor } = await import('../embed/index.js')
  const { db, config } = await ctx.brain()
  return {
    db,
    logger: ctx.logger,
    repoPath: await readConfigValue(db, 'sync.repo_path'),
    remote: ctx.remote,
    dryRun: ctx.dryRun,
    allowedSlugPrefixes: ctx.remote ? ctx.remoteSlugPrefixes : null,
    embedder: noEmbed ? null : embeddingProviderFor(config.embedding),
    maxFences: config.import.maxFencesPerPage,
  }
}

function pageNotFound(slugText: string): NotFoundError {
  return new NotFoundError('page_not_found', `No page ${slugText}.`, { hint: 'Find pages with list_pages or search.' })
}

export const putPageTool = defineOperation({
  name: 'put_page',
  description:
    'Create or replace one markdown page by slug. Use it to save a note you wrote in full (with optional YAML front matter); use capture instead for a quick thought that should get a title and an inbox slug. Identical content returns status "skipped". Returns slug, status (created|updated|skipped), chunks and content_hash.',
  input: z.strictObject({
    slug,
    content: z.string().min(1).max(MAX_CONTENT_CHARS).describe('The whole page as markdown, front matter included'),
    source,
    no_embed: z.boolean().optional().describe('Store without embeddings (default false)'),
  }),
  mutating: true,
  async run(ctx, args) {
    const { putPage } = await import('../pages/index.js')
    const result = await putPage(await writeContext(ctx, args.no_embed ?? false), { slug: args.slug, content: args.content, sourceId: args.source })
    return { ...result }
  },
})

export const captureTool = defineOperation({
  name: 'capture',
  description:
    'Capture a thought, snippet or message as a new page in one step: prose gets front matter and a title, and the slug defaults to inbox/<date>-<hash>. Use it when you do not have a slug in mind; use put_page to write a page you named. Returns the receipt (slug, status, content_hash, write_through, title).',
  input: z.strictObject({
    text: z.string().min(1).max(MAX_CONTENT_CHARS).describe('What to capture (markdown or prose)'),
    slug: slug.optional(),
    type: z.string().trim().min(1).max(100).optional().describe('Page type for wrapped prose (default capture)'),
    source: z.string().trim().min(1).max(500).optional().describe('Where the content came from, stamped as provenance'),
    no_embed: z.boolean().optional(),
  }),
  mutating: true,
  async run(ctx, args) {
    const { shapeCapture, defaultCaptureSlug } = await import('../capture/index.js')
    const { putPage } = await import('../pages/index.js')
    const raw = args.text.trim()
    const now = new Date()
    const shaped = shapeCapture(raw, { type: args.type, capturedVia: args.source ?? (ctx.remote ? 'mcp' : 'cli'), now })
    const result = await putPage(await writeContext(ctx, args.no_embed ?? false), {
      slug: args.slug ?? defaultCaptureSlug(raw, now),
      content: shaped.markdown,
      sourceUri: args.source ?? null,
      sourceKind: 'capture',
    })
    return { ...result, title: shaped.title, wrapped: shaped.wrapped }
  },
})

export const getPageTool = defineOperation({
  name: 'get_page',
  description:
    'Read one page by its exact slug: title, type, tags, front matter, the markdown body (compiled_truth) and timeline; with chunks=true also its stored chunks. Use search first when you do not know the slug.',
  input: z.strictObject({ slug, source, chunks: z.boolean().optional().describe('Include the stored chunks') }),
  mutating: false,
  async run(ctx, args) {
    const { findPage, listChunks, DEFAULT_SOURCE_ID } = await import('../pages/index.js')
    const { db } = await ctx.brain()
    const page = await findPage(db, args.source ?? DEFAULT_SOURCE_ID, args.slug)
    if (!page) throw pageNotFound(args.slug)
    return args.chunks ? { ...page, chunks: await listChunks(db, page.id) } : { ...page }
  },
})

export const listPagesTool = defineOperation({
  name: 'list_pages',
  description: 'List pages newest first, optionally filtered by type, tag, kind (markdown|code), source or slug prefix. Returns {pages: [{slug, title, type, tags, …}]}. Use it to browse; use search to find pages by content.',
  input: z.strictObject({
    type: z.string().max(100).optional(),
    tag: z.string().max(200).optional(),
    kind: z.enum(['markdown', 'code']).optional(),
    source,
    slug_prefix: z.string().max(512).optional(),
    limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 50)'),
    offset: z.number().int().min(0).max(100000).optional(),
  }),
  mutating: false,
  async run(ctx, args) {
    const { listPages } = await import('../pages/index.js')
    const { db } = await ctx.brain()
    const pages = await listPages(db, { type: args.type, tag: args.tag, pageKind: args.kind, sourceId: args.source, slugPrefix: args.slug_prefix, limit: args.limit ?? 50, offset: args.offset })
    return { pages }
  },
})

export const deletePageTool = defineOperation({
  name: 'delete_page',
  description: 'Delete one page by slug together with its chunks, tags and links. It cannot be undone; the page file on disk (if any) is left alone.',
  input: z.strictObject({ slug, source }),
  mutating: true,
  async run(ctx, args) {
    const { deletePage, DEFAULT_SOURCE_ID } = await import('../pages/index.js')
    const { db } = await ctx.brain()
    if (ctx.dryRun) return { slug: args.slug, deleted: false, dry_run: true }
    const deleted = await deletePage(db, args.source ?? DEFAULT_SOURCE_ID, args.slug)
    if (!deleted) throw pageNotFound(args.slug)
    return { slug: args.slug, deleted: true }
  },
})

function tagTool(name: 'add_tag' | 'remove_tag', adding: boolean): Operation {
  return defineOperation({
    name,
    description: adding
      ? 'Add a tag to a page (idempotent). Returns {slug, tag, changed}; changed is false when the page already had it.'
      : 'Remove a tag from a page (idempotent). Returns {slug, tag, changed}; changed is false when the page did not have it.',
    input: z.strictObject({ slug, tag: z.string().trim().min(1).max(200), source }),
    mutating: true,
    async run(ctx, args) {
      const { findPageHash, addTag, removeTag, DEFAULT_SOURCE_ID } = await import('../pages/index.js')
      const { db } = await ctx.brain()
      const page = await findPageHash(db, args.source ?? DEFAULT_SOURCE_ID, args.slug)
      if (!page) throw pageNotFound(args.slug)
      const changed = adding ? await addTag(db, page.id, args.tag) : await removeTag(db, page.id, args.tag)
      return { slug: args.slug, tag: args.tag, changed }
    },
  })
}

export const addTagTool = tagTool('add_tag', true)
export const removeTagTool = tagTool('remove_tag', false)

export const pageTools: Operation[] = [putPageTool, captureTool, getPageTool, listPagesTool, deletePageTool, addTagTool, removeTagTool]
