import { stat } from 'node:fs/promises'
import type { SqlExecutor } from '../db/index.js'
import { listSources } from '../intake/sources/source-repository.js'
import { check, type DoctorCheck } from './types.js'

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** Every source with a local directory must still have it, or sync and audit skip it. */
export async function checkSources(db: SqlExecutor): Promise<DoctorCheck> {
  const withPath = (await listSources(db)).filter((s) => s.localPath)
  const missing: string[] = []
  for (const source of withPath) if (!(await isDirectory(source.localPath!))) missing.push(`${source.id} (${source.localPath})`)
  if (missing.length > 0) {
    return check('sources', 'warn', `source directories missing: ${missing.join(', ')}; restore them, or \`brain sources remove <id>\``)
  }
  return check('sources', 'ok', withPath.length === 0 ? 'no sources with a local directory' : `${withPath.length} source director${withPath.length === 1 ? 'y' : 'ies'} present`)
}
