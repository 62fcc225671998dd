import { join } from 'node:path'
import type { Database, SqlExecutor } from '../../db/index.js'
import type { EmbeddingProvider } from '../../embedding/index.js'
import { trashPages } from '../../history/index.js'
import { importFiles, slugForFile, type ImportFilesResult } from '../import/index.js'
import { decodeTextBytes, type WalkedFile } from '../sources/index.js'
import { BlobReader } from './blob-reader.js'
import type { CollectedPlan } from './collect.js'
import type { PlannedFile, PlannedMove } from './plan.js'
import type { SyncProgress } from './types.js'

/** Provenance kind of pages sync writes; a full walk only ever removes pages of this kind. */
export const SYNC_SOURCE_KIND = 'sync'

export interface ApplyOptions {
  sourceId: string
  repoDir: string
  embedder: EmbeddingProvider | null
  maxFences?: number
  signal?: AbortSignal
  onProgress?: (p: SyncProgress) => void
  onWarning?: (message: string) => void
}

export interface ApplyOutcome {
  moved: string[]
  deletedSlugs: string[]
  renameImport: ImportFilesResult
  mainImport: ImportFilesResult
}

/**
 * Moves a renamed file's page to its new slug, keeping its id, chunks, embeddings and links. When
 * a page already sits at the new slug, the old one is removed instead. Returns whether an old
 * page existed.
 */
async function movePage(db: Database, sourceId: string, move: PlannedMove, newSlug: string, newUri: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM pages WHERE source_id = $1 AND slug = $2', [sourceId, newSlug])
    if (taken.rowCount > 0) {
      const { rows } = await tx.query<{ id: number }>('SELECT id FROM pages WHERE source_id = $1 AND slug = $2', [sourceId, move.from.slug])
      return (
        (
          await trashPages(
            tx,
            rows.map((r) => r.id),
            SYNC_REMOVAL,
          )
        ).length > 0
      )
    }
    const { rowCount } = await tx.query(
      `UPDATE pages SET slug = $3, updated_at = now(), source_uri = CASE WHEN source_kind = $5 THEN $4 ELSE source_uri END
       WHERE source_id = $1 AND slug = $2`,
      [sourceId, move.from.slug, newSlug, newUri, SYNC_SOURCE_KIND],
    )
    return rowCount > 0
  })
}

/** Pages whose files sync saw removed go to the trash, never straight out of the brain. */
const SYNC_REMOVAL = { via: 'sync' }

async function deletePages(db: Database, sourceId: string, slugs: readonly string[]): Promise<string[]> {
  if (slugs.length === 0) return []
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM pages WHERE source_id = $1 AND slug = ANY($2::text[])', [sourceId, slugs])
    return (
      await trashPages(
        tx,
        rows.map((r) => r.id),
        SYNC_REMOVAL,
      )
    ).map((entry) => entry.slug)
  })
}

/** After a full walk: pages this sync wrote earlier from this directory whose file is gone. */
export async function deleteStalePages(db: Database, sourceId: string, repoDir: string, keepSlugs: readonly string[], dryRun = false): Promise<string[]> {
  const where = `source_id = $1 AND source_kind = $2 AND starts_with(source_uri, $3) AND NOT (slug = ANY($4::text[]))`
  const { rows } = await db.query<{ id: number; slug: string }>(`SELECT id, slug FROM pages WHERE ${where}`, [sourceId, SYNC_SOURCE_KIND, `${repoDir}/`, keepSlugs])
  if (dryRun) return rows.map((r) => r.slug)
  return db.transaction(async (tx) =>
    (
      await trashPages(
        tx,
        rows.map((r) => r.id),
        SYNC_REMOVAL,
      )
    ).map((entry) => entry.slug),
  )
}

/** Which of the slugs have a page in the source. */
export async function existingSlugs(db: SqlExecutor, sourceId: string, slugs: readonly string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set()
  const { rows } = await db.query<{ slug: string }>('SELECT slug FROM pages WHERE source_id = $1 AND slug = ANY($2::text[])', [sourceId, slugs])
  return new Set(rows.map((r) => r.slug))
}

function toWalked(repoDir: string, file: PlannedFile): WalkedFile {
  return { relativePath: file.path, absolutePath: join(repoDir, file.path), kind: file.kind, size: file.size ?? 0 }
}

/**
 * Carries out a plan: renames, then deletions, then imports of committed file text (read from
 * git, never from the working tree). One failing file is recorded and the rest continue.
 */
export async function applyPlan(db: Database, plan: CollectedPlan, options: ApplyOptions): Promise<ApplyOutcome> {
  const { sourceId, repoDir } = options
  const moved: string[] = []
  for (const move of plan.moves) {
    options.signal?.throwIfAborted()
    const newSlug = slugForFile({ relativePath: move.to.path, kind: move.to.kind })
    if (await movePage(db, sourceId, move, newSlug, join(repoDir, move.to.path))) moved.push(newSlug)
  }
  const deletedSlugs = await deletePages(
    db,
    sourceId,
    plan.deletes.map((d) => d.slug),
  )
  const reader = new BlobReader(repoDir)
  try {
    const shas = new Map([...plan.moves.map((m) => m.to), ...plan.imports].map((f) => [f.path, f.sha]))
    const total = plan.moves.length + plan.imports.length
    const importWith = (files: PlannedFile[], offset: number): Promise<ImportFilesResult> =>
      importFiles(
        db,
        files.map((f) => toWalked(repoDir, f)),
        {
          sourceId,
          embedder: options.embedder,
          maxFences: options.maxFences,
          signal: options.signal,
          onWarning: options.onWarning,
          readContent: async (file) => decodeTextBytes(await reader.read(shas.get(file.relativePath)!), file.relativePath),
          provenanceFor: (file) => ({ sourceUri: file.absolutePath, sourceKind: SYNC_SOURCE_KIND }),
          onProgress: (p) =>
            options.onProgress?.(p.phase === 'import' ? { sourceId, phase: 'import', done: offset + p.done, total, path: p.path } : { sourceId, phase: 'embed', done: p.done, total: p.total }),
        },
      )
    const renameImport = await importWith(
      plan.moves.map((m) => m.to),
      0,
    )
    const mainImport = await importWith(plan.imports, plan.moves.length)
    return { moved, deletedSlugs, renameImport, mainImport }
  } finally {
    reader.close()
  }
}
