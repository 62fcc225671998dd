import type { Database } from '../../db/index.js'
import { ValidationError } from '../../errors/index.js'
import { trashPages } from '../../history/index.js'
import { DEFAULT_SOURCE_ID } from '../../pages/index.js'
import { deleteSource, requireSource } from '../sources/index.js'
import { acquireSyncLock } from './lock.js'

interface RemovedSource {
  id: string
  localPath: string | null
  pages: number
  /** Pages moved to the trash (all of them): `brain trash restore` brings each back once the source is added again. */
  trashed: number
}

/**
 * Removes a source: its pages move to the trash (with chunks, tags, links and embeddings, so
 * nothing is lost), then the source row goes with its recorded sync failures. It takes the
 * source's sync lock first, so a sync never writes into a source that is being removed.
 */
export async function removeSource(db: Database, id: string): Promise<RemovedSource> {
  if (id === DEFAULT_SOURCE_ID) {
    throw new ValidationError('source_protected', 'The default source cannot be removed; pages without a source live there.', {
      hint: 'Delete its pages one by one with `brain delete <slug>` if you need to.',
    })
  }
  const source = await requireSource(db, id)
  const lock = await acquireSyncLock(db, id, { holder: 'sources remove' })
  try {
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>('SELECT id FROM pages WHERE source_id = $1', [id])
      const trashed = await trashPages(
        tx,
        rows.map((r) => Number(r.id)),
        { via: 'sources remove' },
      )
      const { pages } = await deleteSource(tx, id)
      return { id, localPath: source.localPath, pages: trashed.length + pages, trashed: trashed.length }
    })
  } finally {
    await lock.release()
  }
}
