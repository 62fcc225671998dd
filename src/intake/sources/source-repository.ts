import type { SqlExecutor } from '../../db/index.js'
import { NotFoundError, UsageError, ValidationError } from '../../errors/index.js'
import { parseSyncStrategy, SYNC_STRATEGIES, type SyncStrategy } from './file-filter.js'

/** The keys of `sources.config` that sync reads; other keys are kept as they are. */
export interface SourceConfig {
  strategy: SyncStrategy
  include: string[]
  exclude: string[]
  /** false keeps the source out of `sync --all`. */
  syncEnabled: boolean
}

export interface SourceRecord {
  id: string
  name: string
  localPath: string | null
  lastCommit: string | null
  config: SourceConfig
  chunkerVersion: string | null
  createdAt: Date
  updatedAt: Date
}

interface SourceWithCounts extends SourceRecord {
  pages: number
}

interface NewSource {
  id: string
  name?: string
  localPath: string
  strategy?: SyncStrategy
  include?: readonly string[]
  exclude?: readonly string[]
  syncEnabled?: boolean
}

interface SourceRow {
  id: string
  name: string
  local_path: string | null
  last_commit: string | null
  config: Record<string, unknown> | null
  chunker_version: string | null
  created_at: Date
  updated_at: Date
  pages?: number
}

const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const COLUMNS = 's.id, s.name, s.local_path, s.last_commit, s.config, s.chunker_version, s.created_at, s.updated_at'

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : []
}

/** Reads the jsonb leniently: a hand-edited or older config never stops a sync. */
function parseSourceConfig(raw: Record<string, unknown> | null | undefined): SourceConfig {
  const config = raw ?? {}
  const strategy = SYNC_STRATEGIES.includes(config.strategy as SyncStrategy) ? (config.strategy as SyncStrategy) : 'markdown'
  return { strategy, include: strings(config.include), exclude: strings(config.exclude), syncEnabled: config.syncEnabled !== false }
}

function toRecord(row: SourceRow): SourceRecord {
  return {
    id: row.id,
    name: row.name,
    localPath: row.local_path,
    lastCommit: row.last_commit,
    config: parseSourceConfig(row.config),
    chunkerVersion: row.chunker_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function validateSourceId(id: string): string {
  if (!SOURCE_ID.test(id)) {
    throw new UsageError('invalid_source_id', `"${id.slice(0, 80)}" is not a valid source id.`, {
      hint: 'Use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. notes, work-repo).',
    })
  }
  return id
}

export async function getSource(db: SqlExecutor, id: string): Promise<SourceRecord | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources s WHERE s.id = $1`, [id])
  return rows[0] ? toRecord(rows[0]) : null
}

export async function requireSource(db: SqlExecutor, id: string): Promise<SourceRecord> {
  const source = await getSource(db, id)
  if (!source) throw new NotFoundError('source_not_found', `No source "${id}".`, { hint: 'List sources with `brain sources list`.' })
  return source
}

export async function listSources(db: SqlExecutor): Promise<SourceWithCounts[]> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS}, (SELECT count(*) FROM pages p WHERE p.source_id = s.id)::int AS pages FROM sources s ORDER BY s.id`)
  return rows.map((row) => ({ ...toRecord(row), pages: row.pages ?? 0 }))
}

/** The source registered for a directory (an absolute, resolved path), if any. */
export async function findSourceByPath(db: SqlExecutor, localPath: string): Promise<SourceRecord | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources s WHERE s.local_path = $1 ORDER BY s.id LIMIT 1`, [localPath])
  return rows[0] ? toRecord(rows[0]) : null
}

/** Registers a source; the id and the directory must both be new. */
export async function insertSource(db: SqlExecutor, source: NewSource): Promise<SourceRecord> {
  validateSourceId(source.id)
  const strategy = parseSyncStrategy(source.strategy ?? 'markdown')
  const taken = await findSourceByPath(db, source.localPath)
  if (taken) {
    throw new ValidationError('source_path_taken', `${source.localPath} is already the source "${taken.id}".`, {
      hint: 'A directory belongs to one source, so that sync knows whose bookmark to use. Remove the other source first.',
    })
  }
  const config = { strategy, include: [...(source.include ?? [])], exclude: [...(source.exclude ?? [])], syncEnabled: source.syncEnabled ?? true }
  const { rows } = await db.query<SourceRow>(
    `INSERT INTO sources AS s (id, name, local_path, config) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [source.id, source.name ?? source.id, source.localPath, JSON.stringify(config)],
  )
  if (!rows[0]) {
    throw new ValidationError('source_exists', `A source "${source.id}" already exists.`, {
      hint: `Pick another id, or remove it first with \`brain sources remove ${source.id}\`.`,
    })
  }
  return toRecord(rows[0])
}

/**
 * Deletes a source row and any page still in it (the cascade takes chunks, tags, links and
 * edges). Page history and the trash are kept: a removed source's pages wait there until the
 * source is added again and they are restored, or the trash is purged.
 */
export async function deleteSource(db: SqlExecutor, id: string): Promise<{ pages: number }> {
  const { rowCount: pages } = await db.query('DELETE FROM pages WHERE source_id = $1', [id])
  await db.query('DELETE FROM sources WHERE id = $1', [id])
  return { pages }
}

/** Moves a source's bookmark and records the chunker version the pages were built with. */
export async function recordSourceBookmark(db: SqlExecutor, id: string, commit: string, chunkerVersion: string): Promise<void> {
  await db.query('UPDATE sources SET last_commit = $2, chunker_version = $3, updated_at = now() WHERE id = $1', [id, commit, chunkerVersion])
}

interface SourceChanges {
  name?: string
  strategy?: SyncStrategy
  include?: readonly string[]
  exclude?: readonly string[]
  syncEnabled?: boolean
}

/**
 * Changes a source's name or sync settings, keeping its pages. A change to what is imported
 * (strategy or globs) clears the recorded chunker version, so the next sync walks the whole tree
 * and adds or removes pages to match, instead of only following the next commit's diff.
 */
export async function updateSource(db: SqlExecutor, id: string, changes: SourceChanges): Promise<SourceRecord> {
  const current = await requireSource(db, id)
  const next: SourceConfig = {
    strategy: changes.strategy === undefined ? current.config.strategy : parseSyncStrategy(changes.strategy),
    include: changes.include ? [...changes.include] : current.config.include,
    exclude: changes.exclude ? [...changes.exclude] : current.config.exclude,
    syncEnabled: changes.syncEnabled ?? current.config.syncEnabled,
  }
  const selectionChanged = next.strategy !== current.config.strategy || next.include.join('\n') !== current.config.include.join('\n') || next.exclude.join('\n') !== current.config.exclude.join('\n')
  const { rows } = await db.query<SourceRow>(
    `UPDATE sources AS s SET name = $2, config = s.config || $3::jsonb,
       chunker_version = CASE WHEN $4 THEN NULL ELSE s.chunker_version END, updated_at = now()
     WHERE s.id = $1
     RETURNING ${COLUMNS}`,
    [id, changes.name ?? current.name, JSON.stringify(next), selectionChanged],
  )
  return toRecord(rows[0]!)
}
