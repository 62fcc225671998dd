import type { Database } from '../db/types.js'
import { ValidationError } from '../errors/index.js'
import { DEFAULT_SOURCE_ID } from '../pages/index.js'
import { deleteSource, requireSource } from '../sources/source-repository.js'
import { acquireSyncLock } from './lock.js'

export interface RemovedSource {
  id: string
  localPath: string | null
  pages: number
}

/**
 * Removes a source and every page of it (the cascade takes chunks, tags, links, edges and the
 * recorded sync failures). It takes the source's sync lock first, so a sync never writes into a
 * source that is being removed.
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
    const { pages } = await db.transaction((tx) => deleteSource(tx, id))
    return { id, localPath: source.localPath, pages }
  } finally {
    await lock.release()
  }
}
