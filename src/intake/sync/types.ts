import type { ErrorEnvelope } from '../../errors/index.js'
import type { FileFailure } from '../import/index.js'

/** What a sync job receives (CLI flags, or the autopilot cycle's `{repo}` / `{sourceId}` / `{all}`). */
export interface SyncRequest {
  sourceId?: string
  all?: boolean
  /** A working directory; a registered source with this local_path uses its own bookmark. */
  repo?: string
  full?: boolean
  dryRun?: boolean
  noEmbed?: boolean
  /** Set by the autopilot cycle when extraction follows in the same run; sync itself never extracts. */
  noExtract?: boolean
}

type SyncStatus = 'up_to_date' | 'synced' | 'dry_run'
type SyncMode = 'incremental' | 'full'
export type FullWalkReason = 'first_sync' | 'full_requested' | 'chunker_version' | 'bookmark_unreachable'
/** Which bookmark a sync reads and moves: the source's last_commit, or the global sync.last_commit. */
export type BookmarkScope = 'source' | 'global'

export interface SyncCounts {
  added: number
  modified: number
  deleted: number
  renamed: number
  /** Files examined whose content was unchanged. */
  skipped: number
  failed: number
  /** Changed paths the source does not sync (other kinds, excluded, symlinks, submodules). */
  ignored: number
}

export interface SourceSyncResult extends SyncCounts {
  status: SyncStatus
  sourceId: string
  repo: string
  bookmarkScope: BookmarkScope
  mode: SyncMode | null
  fullWalkReason: FullWalkReason | null
  fromCommit: string | null
  toCommit: string
  /** This sync's failures: recorded, reported, and retried by the next sync that does work. */
  failures: FileFailure[]
  /** Failures from earlier syncs that this sync did not retry (it had nothing else to do). */
  pendingFailures: FileFailure[]
  embedded: number
  embedError: ErrorEnvelope | null
  /** Slugs written or moved, for follow-up work such as extraction. */
  touchedSlugs: string[]
  deletedSlugs: string[]
  chunkerVersion: string
  durationMs: number
}

export interface SkippedSource {
  sourceId: string
  reason: 'sync_disabled' | 'no_local_path'
}

export interface SourceSyncError extends ErrorEnvelope {
  sourceId: string
}

export interface SyncAllResult extends SyncCounts {
  status: SyncStatus | 'partial'
  all: true
  sources: SourceSyncResult[]
  skippedSources: SkippedSource[]
  errors: SourceSyncError[]
  touchedSlugs: string[]
  durationMs: number
}

export type SyncResult = SourceSyncResult | SyncAllResult

export interface SyncProgress {
  sourceId: string
  phase: 'plan' | 'import' | 'embed'
  done: number
  total: number
  path?: string
}

export function zeroCounts(): SyncCounts {
  return { added: 0, modified: 0, deleted: 0, renamed: 0, skipped: 0, failed: 0, ignored: 0 }
}
