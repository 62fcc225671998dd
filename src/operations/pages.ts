import { z } from 'zod'
import { ConfirmationRequired, NotFoundError, ValidationError } from '../errors/index.js'
import type { OperationContext } from './context.js'
import type { Page } from '../pages/types.js'
import type { PutPageResult } from '../pages/index.js'
import { defineOperation, type Operation } from './operation.js'

const MAX_CONTENT_CHARS = 5 * 1024 * 1024
const slug = z.string().trim().min(1).max(512).describe('Page slug, e.g. notes/2024-05-02-standup (no .md)')
const source = z.string().trim().min(1).max(200).optional().describe('Source id (default: default)')

/** What a page write needs, from an operation's context. */
export async function pageWriteContext(ctx: OperationContext, noEmbed: boolean) {
  const { readConfigValue } = await import('../config/index.js')
  const { embeddingProviderFor } = await import('../embedding/store/index.js')
  const { db, config } = await ctx.brain()
  return {
    db,
    logger: ctx.logger,
    repoPath: await readConfigValue(db, 'sync.repo_path'),
    remote: ctx.remote,
    dryRun: ctx.dryRun,
    allowedSlugPrefixes: ctx.remote ? ctx.remoteSlugPrefixes : null,
    embedder: noEmbed ? null : embeddingProviderFor(config.embedding),
    caller: ctx.caller ?? null,
    maxFences: config.import.maxFencesPerPage,
  }
}

type ShownChunk = { chunkIndex: number; chunkText: string; chunkSource: string; language: string | null; symbolType: string | null; symbolName: string | null; symbolNameQualified: string | null; startLine: number | null; endLine: number | null; embedded: boolean }

/** A page as markdown, or its chunks, one block each with what is known about it. */
async function formatPage(result: Page & { chunks?: ShownChunk[] }): Promise<string> {
  if (!result.chunks) return (await import('../pages/serialize.js')).serializePage(result)
  return result.chunks
    .map((c) => {
      const meta = [c.chunkSource, c.language, c.symbolType, c.symbolNameQualified ?? c.symbolName, c.startLine ? `L${c.startLine}-${c.endLine}` : null, c.embedded ? 'embedded' : 'not embedded']
      return `--- chunk ${c.chunkIndex} (${meta.filter(Boolean).join(', ')})\n${c.chunkText}`
    })
    .join('\n')
}

type WriteThrough = PutPageResult['write_through']

/** The five-line capture receipt. */
function formatReceipt(receipt: { slug: string; status: string; contentHash: string; title: string }): string {
  const written = (receipt as unknown as { writeThrough: WriteThrough }).writeThrough
  const where = written.written ? written.path : `not written (${written.reason})`
  return [`slug:    ${receipt.slug}`, `status:  ${receipt.status}`, `hash:    ${receipt.contentHash}`, `path:    ${where}`, `title:   ${receipt.title}`].join('\n')
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
    expected_content_hash: z.string().regex(/^[0-9a-f]{64}$/).optional().describe('Write only if the page still has this content_hash (the one you read); otherwise ConflictError write_conflict and nothing is written'),
  }),
  mutating: true,
  async run(ctx, args) {
    const { putPage } = await import('../pages/index.js')
    const result = await putPage(await pageWriteContext(ctx, args.no_embed ?? false), { slug: args.slug, content: args.content, sourceId: args.source, expectedContentHash: args.expected_content_hash })
    return { ...result }
  },
  present: {
    text: (result) => {
      const written = (result as unknown as { writeThrough: WriteThrough }).writeThrough
      return result.status === 'skipped' ? `skipped ${result.slug} (unchanged)` : `${result.status} ${result.slug} (${result.chunks} chunks)${written.written ? ` -> ${written.path}` : ''}`
    },
  },
})

const MAX_FILE_BASE64_CHARS = Math.ceil((50 * 1024 * 1024) / 3) * 4

export const captureTool = defineOperation({
  name: 'capture',
  description:
    'Capture a thought, snippet or message as a new page in one step: prose gets front matter and a title, and the slug defaults to inbox/<date>-<hash>. Or capture a document file (PDF, ChatGPT/Claude.ai conversations.json, coding-agent .jsonl log) sent as base64 in `file`: it is converted to markdown pages recording source_format and the file hash, and the same file sent again is skipped. Use it when you do not have a slug in mind; use put_page to write a page you named. Returns the receipt (slug, status, content_hash, write_through, title).',
  input: z.strictObject({
    text: z.string().min(1).max(MAX_CONTENT_CHARS).optional().describe('What to capture (markdown or prose); or give file'),
    file: z
      .strictObject({
        name: z.string().trim().min(1).max(255).describe('File name, e.g. report.pdf (picks the converter)'),
        content_type: z.string().trim().max(200).optional().describe('MIME type, e.g. application/pdf'),
        data_base64: z.string().min(1).max(MAX_FILE_BASE64_CHARS).describe('The file bytes, base64'),
      })
      .optional()
      .describe('A document file to convert instead of text'),
    url: z.string().trim().min(1).max(2048).optional().describe('An http(s) URL to fetch and convert (HTML, PDF, text, markdown) into web/<host>/<path>'),
    allow_private: z.boolean().optional().describe('Let url reach loopback/private addresses (local callers only)'),
    slug: slug.optional(),
    type: z.string().trim().min(1).max(100).optional().describe('Page type for wrapped prose (default capture)'),
    source: z.string().trim().min(1).max(500).optional().describe('Where the content came from, stamped as provenance'),
    no_embed: z.boolean().optional(),
  }),
  mutating: true,
  async run(ctx, args) {
    if ([args.text, args.file, args.url].filter((v) => v !== undefined).length !== 1) {
      throw new ValidationError('capture_requires_one_input', 'Give capture one of text, file or url.', { hint: 'text: "a thought" | file: {name, data_base64} | url: "https://…"' })
    }
    if (args.file !== undefined) return captureFile(ctx, args.file, args)
    if (args.url !== undefined) return captureFromUrl(ctx, args.url, args)
    const { shapeCapture, defaultCaptureSlug } = await import('../capture/index.js')
    const { putPage } = await import('../pages/index.js')
    const raw = args.text!.trim()
    const now = new Date()
    const shaped = shapeCapture(raw, { type: args.type, capturedVia: args.source ?? (ctx.remote ? 'mcp' : 'cli'), now })
    const result = await putPage(await pageWriteContext(ctx, args.no_embed ?? false), {
      slug: args.slug ?? defaultCaptureSlug(raw, now),
      content: shaped.markdown,
      sourceUri: args.source ?? null,
      sourceKind: 'capture',
      writtenVia: ctx.remote ? 'mcp:capture' : 'capture',
    })
    return { ...result, title: shaped.title, wrapped: shaped.wrapped }
  },
  present: { text: formatReceipt },
})

/** The slug check of remote callers with configured prefixes (none for local callers). */
function remoteSlugCheck(ctx: OperationContext, prefixes: readonly string[] | null): ((slug: string) => void) | undefined {
  const allowed = prefixes && prefixes.length > 0 ? prefixes : null
  if (!ctx.remote || allowed === null) return undefined
  return (target) => {
    if (!allowed.some((p) => target.startsWith(p))) {
      throw new ValidationError('slug_not_allowed', `Writing ${target} is not allowed for this caller.`, { hint: `Allowed slug prefixes: ${allowed.join(', ')}` })
    }
  }
}

/** A URL fetched behind the address guard; a remote caller can never reach private addresses. */
/** Converted pages are mirrored to `sync.repo_path` as `put` mirrors a page: not for remote writers without a slug allowlist. */
function documentWriteThrough(write: { repoPath: string | null; remote: boolean; allowedSlugPrefixes: readonly string[] | null }): { repoPath: string | null; sandboxed: boolean } {
  return { repoPath: write.repoPath, sandboxed: write.remote && (write.allowedSlugPrefixes ?? []).length === 0 }
}

async function captureFromUrl(ctx: OperationContext, url: string, args: { slug?: string; no_embed?: boolean; allow_private?: boolean }) {
  if (ctx.remote && args.allow_private) throw new ValidationError('allow_private_local_only', 'allow_private is for local callers only.', { hint: 'Capture private URLs on the machine itself.' })
  if (ctx.dryRun) throw new ValidationError('dry_run_unsupported', 'A URL capture cannot be previewed.', { hint: 'Run it without --dry-run.' })
  const { captureUrl } = await import('../capture/index.js')
  const write = await pageWriteContext(ctx, args.no_embed ?? false)
  const { config } = await ctx.brain()
  const receipt = await captureUrl(write.db, {
    writeThrough: documentWriteThrough(write),
    url,
    slug: args.slug,
    maxBytes: config.fetch.maxBytes,
    timeoutMs: config.fetch.timeoutMs,
    allowPrivate: args.allow_private === true,
    embedder: write.embedder,
    maxFences: write.maxFences,
    writtenVia: ctx.remote ? 'mcp:capture' : 'capture',
    writtenBy: write.caller,
    checkSlug: remoteSlugCheck(ctx, write.allowedSlugPrefixes),
    autoLink: !ctx.remote,
  })
  return { ...receipt }
}

/** A document file through its converter; remote callers keep their slug prefixes and get no derived links. */
async function captureFile(ctx: OperationContext, file: { name: string; content_type?: string; data_base64: string }, args: { slug?: string; source?: string; no_embed?: boolean }) {
  const { captureDocument } = await import('../capture/index.js')
  const write = await pageWriteContext(ctx, args.no_embed ?? false)
  if (ctx.dryRun) throw new ValidationError('dry_run_unsupported', 'A document capture cannot be previewed.', { hint: 'Run it without --dry-run.' })
  const receipt = await captureDocument(write.db, {
    writeThrough: documentWriteThrough(write),
    bytes: Buffer.from(file.data_base64, 'base64'),
    name: file.name,
    contentType: file.content_type,
    slug: args.slug,
    source: args.source,
    embedder: write.embedder,
    maxFences: write.maxFences,
    writtenVia: ctx.remote ? 'mcp:capture' : 'capture',
    writtenBy: write.caller,
    checkSlug: remoteSlugCheck(ctx, write.allowedSlugPrefixes),
    autoLink: !ctx.remote,
  })
  return { ...receipt }
}

export const getPageTool = defineOperation({
  name: 'get_page',
  description:
    'Read one page by its exact slug: title, type, tags, front matter, the markdown body (compiled_truth) and timeline; with chunks=true also its stored chunks. Use search first when you do not know the slug.',
  input: z.strictObject({ slug, source, chunks: z.boolean().optional().describe('Include the stored chunks') }),
  mutating: false,
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
  description: 'List pages newest first, optionally filtered by type, tag, kind (markdown|code), source or slug prefix. Returns {pages: [{slug, title, type, tags, …}]}. Use it to browse; use search to find pages by content.',
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
      if (ctx.remote) throw new ValidationError('hard_delete_local_only', 'A hard delete cannot be undone, so only a local caller may ask for one.', { hint: 'Delete without hard: the page goes to the trash.' })
      if (!args.yes) {
        throw new ConfirmationRequired('hard_delete_unconfirmed', `Deleting ${ref.slug} for good cannot be undone.`, { hint: `Run \`brain delete ${ref.slug} --hard --yes\`, or leave out --hard to move it to the trash.` })
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
    examples: [['Delete a note', '$0 delete notes/old'], ['Delete for good', '$0 delete notes/old --hard --yes']],
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

const addTagTool = tagTool('add_tag', true)
const removeTagTool = tagTool('remove_tag', false)

export const pageTools: Operation[] = [putPageTool, captureTool, getPageTool, listPagesTool, deletePageTool, addTagTool, removeTagTool]
