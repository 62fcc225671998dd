import type { Database } from '../db/index.js'
import type { EmbeddingProvider } from '../embedding/index.js'
import { ConflictError, ValidationError } from '../errors/index.js'
import type { Logger } from '../util/index.js'
import { importPage, type ImportResult } from './import-page.js'
import { findPage, findPageHash } from './page-repository.js'
import { serializePage } from './serialize.js'
import { normalizeSlug } from './slug.js'
import { DEFAULT_SOURCE_ID } from './types.js'
import { checkWriteThrough, writePageFile, type WriteThroughResult } from './write-through.js'

export interface PutPageContext {
  db: Database
  logger: Logger
  /** `sync.repo_path`: where pages are mirrored as markdown files. */
  repoPath: string | null
  /** True for calls arriving over MCP: they run untrusted. */
  remote: boolean
  dryRun?: boolean
  /**
   * Slug prefixes an untrusted caller may write. With none configured, untrusted writes reach
   * the database only, never the disk.
   */
  allowedSlugPrefixes?: readonly string[] | null
  embedder?: EmbeddingProvider | null
  /** `BRAIN_MAX_FENCES_PER_PAGE` (config `import.maxFencesPerPage`); the chunker's default when unset. */
  maxFences?: number
  /** The token name of an HTTP/MCP caller, recorded in the page's history. */
  caller?: string | null
}

export interface PutPageInput {
  slug: string
  content: string
  sourceId?: string
  sourceUri?: string | null
  sourceKind?: string | null
  /** What history records the write as; `put_page` / `mcp:put_page` by default. */
  writtenVia?: string
  /** Write only if the page still has this content hash (what the writer last read); else `write_conflict`. */
  expectedContentHash?: string
}

export interface PutPageResult extends ImportResult {
  ingested_via: string
  write_through: WriteThroughResult
}

function assertSlugAllowed(slug: string, prefixes: readonly string[]): void {
  if (!prefixes.some((prefix) => slug.startsWith(prefix))) {
    throw new ValidationError('slug_not_allowed', `Writing ${slug} is not allowed for this caller.`, {
      hint: `Allowed slug prefixes: ${prefixes.join(', ')}`,
    })
  }
}

/**
 * Writes a markdown page through the import pipeline, then mirrors it to disk when
 * `sync.repo_path` is set. A failing disk write is logged loudly and reported; the database
 * write stands.
 */
export async function putPage(ctx: PutPageContext, input: PutPageInput): Promise<PutPageResult> {
  const slug = normalizeSlug(input.slug)
  const sourceId = input.sourceId ?? DEFAULT_SOURCE_ID
  const untrusted = ctx.remote
  const allowlist = ctx.allowedSlugPrefixes && ctx.allowedSlugPrefixes.length > 0 ? ctx.allowedSlugPrefixes : null
  if (untrusted && allowlist) assertSlugAllowed(slug, allowlist)
  const ingestedVia = ctx.remote ? 'mcp:put_page' : 'put_page'
  const ingestedAt = new Date()
  const writesThrough = !ctx.dryRun && !(untrusted && !allowlist)
  // Refused before the page is stored: a command never fails after it has written.
  if (writesThrough) await checkWriteThrough(ctx.repoPath, sourceId, slug)
  if (input.expectedContentHash !== undefined) {
    const current = await findPageHash(ctx.db, sourceId, slug)
    if (current?.contentHash !== input.expectedContentHash) {
      throw new ConflictError('write_conflict', `${slug} changed since it was read${current ? '' : ' (it no longer exists)'}; nothing was written.`, {
        hint: 'Read the page again, apply your change to the newer text, and save that.',
      })
    }
  }
  const result = await importPage(
    ctx.db,
    {
      slug,
      sourceId,
      kind: 'markdown',
      content: input.content,
      provenance: { ingestedVia, ingestedAt, sourceUri: input.sourceUri ?? null, sourceKind: input.sourceKind ?? null },
      writtenVia: input.writtenVia ?? ingestedVia,
      writtenBy: ctx.caller ?? null,
    },
    { embedder: ctx.embedder ?? null, maxFences: ctx.maxFences, dryRun: ctx.dryRun, onWarning: (m) => ctx.logger.warn(m), autoLink: !untrusted },
  )
  let writeThrough: WriteThroughResult
  if (ctx.dryRun) writeThrough = { written: false, path: null, reason: 'dry_run' }
  else if (untrusted && !allowlist) writeThrough = { written: false, path: null, reason: 'sandboxed' }
  else {
    const page = await findPage(ctx.db, sourceId, slug)
    const markdown = serializePage(page!, { ingested_via: ingestedVia, ingested_at: ingestedAt.toISOString() })
    writeThrough = await writePageFile(ctx.repoPath, sourceId, slug, markdown)
    if (!writeThrough.written && (writeThrough.reason === 'write_failed' || writeThrough.reason === 'disk_full')) {
      ctx.logger.error(`write-through of ${slug} to ${writeThrough.path} FAILED: ${writeThrough.error}; the database copy is kept`)
    }
  }
  return { ...result, ingested_via: ingestedVia, write_through: writeThrough }
}
