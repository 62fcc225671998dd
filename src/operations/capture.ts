import * as z from 'zod'
import { ValidationError } from '../errors/index.js'
import type { PutPageResult } from '../pages/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation } from './operation.js'
import { MAX_CONTENT_CHARS, pageWriteContext, slug } from './pages.js'

type WriteThrough = PutPageResult['write_through']

/** The five-line capture receipt. */
function formatReceipt(receipt: { slug: string; status: string; contentHash: string; title: string }): string {
  const written = (receipt as unknown as { writeThrough: WriteThrough }).writeThrough
  const where = written.written ? written.path : `not written (${written.reason})`
  return [`slug:    ${receipt.slug}`, `status:  ${receipt.status}`, `hash:    ${receipt.contentHash}`, `path:    ${where}`, `title:   ${receipt.title}`].join('\n')
}

const MAX_FILE_BASE64_CHARS = Math.ceil((50 * 1024 * 1024) / 3) * 4

export const captureTool = defineOperation({
  name: 'capture',
  description:
    'Save a thought, snippet, web page (url) or document (file, base64) as a new page when you have no slug in mind: it gets a title and an inbox/<date>-<hash> slug. Returns slug and status.',
  input: z.strictObject({
    text: z.string().min(1).max(MAX_CONTENT_CHARS).optional().describe('Markdown or prose to capture'),
    file: z
      .strictObject({
        name: z.string().trim().min(1).max(255).describe('e.g. report.pdf (picks the converter)'),
        content_type: z.string().trim().max(200).optional().describe('MIME type'),
        data_base64: z.string().min(1).max(MAX_FILE_BASE64_CHARS).describe('File bytes, base64'),
      })
      .optional()
      .describe('A document to convert (PDF, chat export…)'),
    url: z.string().trim().min(1).max(2048).optional().describe('An http(s) page or file to fetch and convert'),
    allow_private: z.boolean().optional().describe('Let url reach private addresses (local callers only)'),
    slug: slug.optional(),
    type: z.string().trim().min(1).max(100).optional().describe('Page type for wrapped prose (default capture)'),
    source: z.string().trim().min(1).max(500).optional().describe('Where it came from (provenance)'),
    no_embed: z.boolean().optional(),
  }),
  mutating: true,
  memory: true,
  async run(ctx, args) {
    if ([args.text, args.file, args.url].filter((v) => v !== undefined).length !== 1) {
      throw new ValidationError('capture_requires_one_input', 'Give capture one of text, file or url.', { hint: 'text: "a thought" | file: {name, data_base64} | url: "https://…"' })
    }
    if (args.file !== undefined) return captureFile(ctx, args.file, args)
    if (args.url !== undefined) return captureFromUrl(ctx, args.url, args)
    const { shapeCapture, defaultCaptureSlug } = await import('../intake/capture/index.js')
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
function remoteSlugCheck(ctx: CallContext, prefixes: readonly string[] | null): ((slug: string) => void) | undefined {
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

async function captureFromUrl(ctx: CallContext, url: string, args: { slug?: string; no_embed?: boolean; allow_private?: boolean }) {
  if (ctx.remote && args.allow_private) throw new ValidationError('allow_private_local_only', 'allow_private is for local callers only.', { hint: 'Capture private URLs on the machine itself.' })
  if (ctx.dryRun) throw new ValidationError('dry_run_unsupported', 'A URL capture cannot be previewed.', { hint: 'Run it without --dry-run.' })
  const { captureUrl } = await import('../intake/capture/index.js')
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
async function captureFile(ctx: CallContext, file: { name: string; content_type?: string; data_base64: string }, args: { slug?: string; source?: string; no_embed?: boolean }) {
  const { captureDocument } = await import('../intake/capture/index.js')
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
