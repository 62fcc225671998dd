import type { Database } from '../../db/index.js'
import { serializeError } from '../../errors/index.js'
import { importPage } from '../../pages/index.js'
import type { FileFailure } from '../import/index.js'
import { decodeTextBytes, slugForPath } from '../sources/index.js'
import { deleteStalePages, existingSlugs } from './apply.js'
import { BlobReader } from './blob-reader.js'
import type { CollectedPlan } from './collect.js'
import type { SyncTarget } from './target.js'
import type { SourceSyncResult } from './types.js'

interface Verdicts {
  added: number
  modified: number
  skipped: number
  failures: FileFailure[]
}

/** Runs each planned import through importPage's dry run: parsed and hashed, never written. */
async function judgeImports(db: Database, target: SyncTarget, plan: CollectedPlan, signal?: AbortSignal): Promise<Verdicts> {
  const verdicts: Verdicts = { added: 0, modified: 0, skipped: 0, failures: [] }
  const reader = new BlobReader(target.repoDir)
  try {
    for (const file of plan.imports) {
      signal?.throwIfAborted()
      try {
        const slug = slugForPath(file.path, file.kind) ?? file.path
        const content = decodeTextBytes(await reader.read(file.sha), file.path)
        const judged = await importPage(db, { slug, sourceId: target.source.id, kind: file.kind, content, path: file.path }, { dryRun: true })
        if (judged.status === 'created') verdicts.added++
        else if (judged.status === 'updated') verdicts.modified++
        else verdicts.skipped++
      } catch (err) {
        const envelope = serializeError(err)
        verdicts.failures.push({ path: file.path, class: envelope.class, code: envelope.code, message: envelope.message })
      }
    }
  } finally {
    reader.close()
  }
  return verdicts
}

/**
 * What a sync would do, without writing: imports judged by content hash (so unchanged files
 * count as skipped), and the pages that deletions, renames and a full walk's clean-up would touch.
 */
export async function dryRunResult(db: Database, target: SyncTarget, plan: CollectedPlan, base: SourceSyncResult, signal?: AbortSignal): Promise<SourceSyncResult> {
  const sourceId = target.source.id
  const verdicts = await judgeImports(db, target, plan, signal)
  const deletes = await existingSlugs(
    db,
    sourceId,
    plan.deletes.map((d) => d.slug),
  )
  const moves = await existingSlugs(
    db,
    sourceId,
    plan.moves.map((m) => m.from.slug),
  )
  const stale = plan.treeSlugs ? await deleteStalePages(db, sourceId, target.repoDir, plan.treeSlugs, true) : []
  return {
    ...base,
    status: 'dry_run',
    added: verdicts.added,
    modified: verdicts.modified,
    skipped: verdicts.skipped,
    failed: verdicts.failures.length,
    failures: verdicts.failures,
    deleted: deletes.size + stale.length,
    renamed: moves.size,
    ignored: plan.ignored.length,
    deletedSlugs: [...deletes, ...stale],
  }
}
