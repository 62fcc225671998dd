import { CHUNKER_VERSION, type ChunkDraft } from '../chunking/index.js'
import { CallSiteCollector, type PageCodeGraph } from '../code/page-edges.js'
import { replacePageCodeGraph } from '../code/edges.js'
import type { Database, SqlExecutor } from '../db/types.js'
import { derivedLinkSettings, linkNewMarkdownPages } from '../links/import-links.js'
import { computePageContentHash } from './content-hash.js'
import { chunk, importPage, prepare, validateContent, writePage, type ImportInput, type ImportOptions, type ImportResult, type PreparedPage } from './import-page.js'
import { recordWrite } from './keep-version.js'
import { normalizeSlug } from './slug.js'
import { DEFAULT_SOURCE_ID } from './types.js'

/**
 * Bulk writes through the one import pipeline: the pages of a batch that do not exist yet are
 * written in one transaction with one statement per table (pages, tags, chunks, explicit links)
 * instead of one per page, so the statement overhead and the statement-level statistics
 * triggers are paid per batch. The result is the brain a page-at-a-time import leaves: a batch
 * holds notes or code, never both (a note cites only code written before it), and a page after
 * an entity page of its batch sees that entity's names, the pages before it do not. Everything
 * else goes through importPage one page at a time, exactly as a single write: pages that exist
 * (unchanged ones are skipped), a dry run, writes that embed, and any batch the database refuses
 * (each page then gets its own error). Results come back in input order.
 */

export type BatchOutcome = { ok: true; result: ImportResult } | { ok: false; error: unknown }

interface NewPage {
  index: number
  input: ImportInput
  slug: string
  sourceId: string
  page: PreparedPage
  contentHash: string
  drafts: ChunkDraft[]
  codeGraph: PageCodeGraph
}

interface Planned {
  index: number
  input: ImportInput
  slug: string
  sourceId: string
  page: PreparedPage
  contentHash: string
}

export async function importPages(db: Database, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = new Array(inputs.length)
  const planned: Planned[] = []
  for (const [index, input] of inputs.entries()) {
    try {
      const slug = normalizeSlug(input.slug)
      validateContent(slug, input.content)
      const page = prepare(input, slug)
      const contentHash = computePageContentHash({ ...page, pageKind: input.kind, chunkerVersion: CHUNKER_VERSION })
      planned.push({ index, input, slug, sourceId: input.sourceId ?? DEFAULT_SOURCE_ID, page, contentHash })
    } catch (error) {
      outcomes[index] = { ok: false, error }
    }
  }
  const existing = await existingPages(db, planned)
  const single = async (p: Planned): Promise<void> => {
    try {
      outcomes[p.index] = { ok: true, result: await importPage(db, p.input, options) }
    } catch (error) {
      outcomes[p.index] = { ok: false, error }
    }
  }
  let run: Planned[] = []
  const seen = new Set<string>()
  const flush = async (): Promise<void> => {
    const pages = run
    run = []
    if (pages.length > 0) await writeNewPages(db, pages, options, outcomes, single)
  }
  for (const p of planned) {
    const key = `${p.sourceId}\u0000${p.slug}`
    const found = existing.get(key)
    if (found && found.contentHash === p.contentHash) {
      outcomes[p.index] = {
        ok: true,
        result: { status: 'skipped', slug: p.slug, sourceId: p.sourceId, pageId: found.id, contentHash: p.contentHash, pageKind: p.input.kind, chunks: 0, embedded: 0, embedError: null },
      }
      continue
    }
    if (found || seen.has(key) || options.dryRun || options.annotateChunks || options.embedder) {
      await flush()
      await single(p)
    } else {
      run.push(p)
    }
    seen.add(key)
  }
  await flush()
  return outcomes
}

async function existingPages(db: SqlExecutor, planned: readonly Planned[]): Promise<Map<string, { id: number; contentHash: string }>> {
  if (planned.length === 0) return new Map()
  const { rows } = await db.query<{ id: number; source_id: string; slug: string; content_hash: string }>(
    `SELECT p.id, p.source_id, p.slug, p.content_hash FROM pages p JOIN unnest($1::text[], $2::text[]) AS k(source_id, slug) ON p.source_id = k.source_id AND p.slug = k.slug`,
    [planned.map((p) => p.sourceId), planned.map((p) => p.slug)],
  )
  return new Map(rows.map((r) => [`${r.source_id}\u0000${r.slug}`, { id: Number(r.id), contentHash: r.content_hash }]))
}

async function writeNewPages(db: Database, run: readonly Planned[], options: ImportOptions, outcomes: BatchOutcome[], single: (p: Planned) => Promise<void>): Promise<void> {
  const pages: NewPage[] = []
  for (const p of run) {
    try {
      const calls = new CallSiteCollector()
      const drafts = await chunk(p.input, p.page, p.slug, options, calls)
      pages.push({ ...p, drafts, codeGraph: calls.graph(drafts) })
    } catch (error) {
      outcomes[p.index] = { ok: false, error }
    }
  }
  if (pages.length === 0) return
  // A group holds one kind: a note must not find (cite) a code file that comes after it.
  let group: NewPage[] = []
  for (const p of pages) {
    if (group.length > 0 && group[0]!.input.kind !== p.input.kind) {
      await writeGroup(db, group, options, outcomes, single)
      group = []
    }
    group.push(p)
  }
  await writeGroup(db, group, options, outcomes, single)
}

async function writeGroup(db: Database, pages: readonly NewPage[], options: ImportOptions, outcomes: BatchOutcome[], single: (p: Planned) => Promise<void>): Promise<void> {
  if (pages.length === 0) return
  const written = await writePage(db, pages[0]!.sourceId, (tx) => insertNewPages(tx, pages, options)).catch(() => null)
  if (written === null) {
    for (const p of pages) await single(p)
    return
  }
  for (const [i, p] of pages.entries()) {
    outcomes[p.index] = {
      ok: true,
      result: {
        status: 'created',
        slug: p.slug,
        sourceId: p.sourceId,
        pageId: written[i]!,
        contentHash: p.contentHash,
        pageKind: p.input.kind,
        chunks: p.drafts.length,
        embedded: 0,
        embedError: null,
      },
    }
  }
}

/** Writes pages that do not exist yet; returns their ids in order. */
async function insertNewPages(tx: SqlExecutor, pages: readonly NewPage[], options: ImportOptions): Promise<number[]> {
  // Read before the pages exist: an entity page of this batch is then not mentioned by the pages before it.
  const settings = await derivedLinkSettings(tx)
  const rows = []
  for (const p of pages) {
    const changes = await recordWrite(tx, null, { ...p.page, pageKind: p.input.kind }, options.keepVersions !== false)
    const provenance = p.input.provenance ?? {}
    rows.push({
      ord: rows.length,
      source_id: p.sourceId,
      slug: p.slug,
      title: p.page.title,
      type: p.page.type,
      page_kind: p.input.kind,
      compiled_truth: p.page.compiledTruth,
      timeline: p.page.timeline,
      frontmatter: p.page.frontmatter,
      content_hash: p.contentHash,
      ingested_via: provenance.ingestedVia ?? null,
      ingested_at: (provenance.ingestedAt ?? (provenance.ingestedVia ? new Date() : null))?.toISOString() ?? null,
      source_uri: provenance.sourceUri ?? null,
      source_kind: provenance.sourceKind ?? null,
      written_via: p.input.writtenVia ?? provenance.ingestedVia ?? (provenance.sourceKind === 'sync' ? 'sync' : 'import'),
      written_by: p.input.writtenBy ?? null,
      lines_added: changes.linesAdded,
      lines_removed: changes.linesRemoved,
    })
  }
  // Ids are drawn in input order, as one write per page would draw them.
  const inserted = await tx.query<{ id: number; slug: string; source_id: string }>(
    `INSERT INTO pages (source_id, slug, title, type, page_kind, compiled_truth, timeline, frontmatter, content_hash,
                        ingested_via, ingested_at, source_uri, source_kind, written_via, written_by, lines_added, lines_removed, updated_at)
     SELECT x.source_id, x.slug, x.title, x.type, x.page_kind, x.compiled_truth, x.timeline, x.frontmatter, x.content_hash,
            x.ingested_via, x.ingested_at, x.source_uri, x.source_kind, x.written_via, x.written_by, x.lines_added, x.lines_removed, now()
     FROM jsonb_to_recordset($1::jsonb) AS x(source_id text, slug text, title text, type text, page_kind text,
            compiled_truth text, timeline text, frontmatter jsonb, content_hash text, ingested_via text, ingested_at timestamptz,
            source_uri text, source_kind text, written_via text, written_by text, lines_added integer, lines_removed integer, ord bigint)
     ORDER BY x.ord
     RETURNING id, slug, source_id`,
    [JSON.stringify(rows)],
  )
  const idOf = new Map(inserted.rows.map((r) => [`${r.source_id}\u0000${r.slug}`, Number(r.id)]))
  const ids = pages.map((p) => idOf.get(`${p.sourceId}\u0000${p.slug}`)!)
  const tagged = pages.flatMap((p, i) => p.page.tags.map((tag) => [ids[i]!, tag] as const))
  if (tagged.length > 0) {
    await tx.query('INSERT INTO tags (page_id, tag) SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT DO NOTHING', [tagged.map((t) => t[0]), tagged.map((t) => t[1])])
  }
  await insertChunks(tx, pages, ids)
  const markdown = []
  for (const [i, p] of pages.entries()) {
    const page = { id: ids[i]!, slug: p.slug, sourceId: p.sourceId }
    if (p.input.kind === 'code') await replacePageCodeGraph(tx, page.id, p.sourceId, p.codeGraph, true)
    else markdown.push({ page, type: p.page.type, text: { ...p.page, content: p.input.content } })
  }
  if (markdown.length > 0) await linkNewMarkdownPages(tx, markdown, { derived: options.autoLink !== false, settings })
  return ids
}

async function insertChunks(tx: SqlExecutor, pages: readonly NewPage[], ids: readonly number[]): Promise<void> {
  const payload = pages.flatMap((p, i) =>
    p.drafts.map((c) => ({
      ord: 0,
      page_id: ids[i],
      chunk_index: c.chunkIndex,
      chunk_text: c.text,
      chunk_source: c.source,
      token_count: c.tokenCount,
      language: c.language,
      symbol_name: c.symbolName,
      symbol_type: c.symbolType,
      start_line: c.startLine,
      end_line: c.endLine,
      parent_symbol_path: c.parentSymbolPath,
      doc_comment: c.docComment,
      symbol_name_qualified: c.symbolNameQualified,
    })),
  )
  if (payload.length === 0) return
  for (const [ord, row] of payload.entries()) row.ord = ord
  await tx.query(
    `INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, token_count, language, symbol_name,
        symbol_type, start_line, end_line, parent_symbol_path, doc_comment, symbol_name_qualified)
     SELECT x.page_id, x.chunk_index, x.chunk_text, x.chunk_source, x.token_count, x.language, x.symbol_name, x.symbol_type,
        x.start_line, x.end_line, x.parent_symbol_path, x.doc_comment, x.symbol_name_qualified
     FROM jsonb_to_recordset($1::jsonb) AS x(page_id bigint, chunk_index int, chunk_text text, chunk_source text, token_count int,
        language text, symbol_name text, symbol_type text, start_line int, end_line int, parent_symbol_path text[],
        doc_comment text, symbol_name_qualified text, ord bigint)
     ORDER BY x.ord`,
    [JSON.stringify(payload)],
  )
}
