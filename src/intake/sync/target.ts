import { realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { readConfigValue, writeConfigValue } from '../../config/index.js'
import type { SqlExecutor } from '../../db/index.js'
import { NotFoundError, UsageError } from '../../errors/index.js'
import { DEFAULT_SOURCE_ID } from '../../pages/index.js'
import { findSourceByPath, recordSourceBookmark, requireSource, type SourceRecord } from '../sources/source-repository.js'
import type { BookmarkScope } from './types.js'

/** One directory to sync: the source whose pages it writes, and the bookmark it reads and moves. */
export interface SyncTarget {
  source: SourceRecord
  repoDir: string
  scope: BookmarkScope
}

export const GLOBAL_BOOKMARK_KEY = 'sync.last_commit'

/** The directory's real path, so that symlinked and relative spellings find the same source. */
export async function canonicalDir(dir: string): Promise<string> {
  const absolute = resolve(dir)
  const info = await stat(absolute).catch(() => null)
  if (!info?.isDirectory()) {
    throw new NotFoundError('repo_not_found', `${absolute} is not a directory.`, { hint: 'Pass the working directory of a git repository.' })
  }
  return realpath(absolute)
}

/**
 * Resolves what to sync. `--source <id>`: that source and its bookmark. A directory (`--repo`,
 * or the configured sync.repo_path): the source registered for it and its bookmark, else the
 * default source with the global sync.last_commit.
 */
export async function resolveTarget(db: SqlExecutor, request: { sourceId?: string; repo?: string }): Promise<SyncTarget> {
  if (request.sourceId !== undefined) {
    const source = await requireSource(db, request.sourceId)
    if (!source.localPath) {
      throw new UsageError('source_has_no_path', `Source "${source.id}" has no local path to sync from.`, {
        hint: 'Register a directory with `brain sources add <id> --path <dir>`.',
      })
    }
    if (request.repo !== undefined && (await canonicalDir(request.repo)) !== source.localPath) {
      throw new UsageError('sync_source_repo_mismatch', `--repo ${request.repo} is not the directory of source "${source.id}" (${source.localPath}).`, {
        hint: 'Pass either --source or --repo.',
      })
    }
    return { source, repoDir: await canonicalDir(source.localPath), scope: 'source' }
  }
  const repo = request.repo ?? (await readConfigValue(db, 'sync.repo_path'))
  if (!repo) {
    throw new UsageError('sync_requires_repo', 'Nothing to sync: no --source, --all or --repo, and sync.repo_path is not set.', {
      hint: 'Run `brain sync --repo <dir>`, `brain sync --source <id>`, or `brain sync --all`.',
    })
  }
  const repoDir = await canonicalDir(repo)
  const registered = await findSourceByPath(db, repoDir)
  if (registered) return { source: registered, repoDir, scope: 'source' }
  return { source: await requireSource(db, DEFAULT_SOURCE_ID), repoDir, scope: 'global' }
}

/** The bookmark as stored now (read again under the lock: another sync may just have moved it). */
export async function readBookmark(db: SqlExecutor, target: SyncTarget): Promise<{ lastCommit: string | null; chunkerVersion: string | null }> {
  const source = await requireSource(db, target.source.id)
  const lastCommit = target.scope === 'source' ? source.lastCommit : await readConfigValue(db, GLOBAL_BOOKMARK_KEY)
  return { lastCommit, chunkerVersion: source.chunkerVersion }
}

/** Moves the bookmark and records the chunker version the pages now match. */
export async function writeBookmark(db: SqlExecutor, target: SyncTarget, commit: string, chunkerVersion: string): Promise<void> {
  if (target.scope === 'source') {
    await recordSourceBookmark(db, target.source.id, commit, chunkerVersion)
    return
  }
  await writeConfigValue(db, GLOBAL_BOOKMARK_KEY, commit)
  await db.query('UPDATE sources SET chunker_version = $2, updated_at = now() WHERE id = $1', [target.source.id, chunkerVersion])
}
