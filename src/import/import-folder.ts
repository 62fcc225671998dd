import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Database } from '../db/types.js'
import { NotFoundError } from '../errors/index.js'
import { createFileFilter, type SyncStrategy } from '../sources/file-filter.js'
import { readExportManifest } from './export-manifest.js'
import { importFiles, slugForFile, type ImportFilesOptions, type ImportFilesResult } from './import-files.js'
import { walkFiles, type IgnoredFile } from '../sources/walk.js'

export interface ImportFolderOptions extends ImportFilesOptions {
  strategy: SyncStrategy
  include?: readonly string[]
  exclude?: readonly string[]
}

export interface ImportFolderResult extends ImportFilesResult {
  root: string
  strategy: SyncStrategy
  /** Files of accepted names that were not imported (links, pipes, devices), with the reason. */
  ignored: IgnoredFile[]
}

/** Imports every accepted file below a folder; the folder need not be a git repository. */
export async function importFolder(db: Database, root: string, options: ImportFolderOptions): Promise<ImportFolderResult> {
  const absoluteRoot = resolve(root)
  const info = await stat(absoluteRoot).catch(() => null)
  if (!info?.isDirectory()) {
    throw new NotFoundError('folder_not_found', `${absoluteRoot} is not a folder.`, { hint: 'Pass the path of a folder of notes or code.' })
  }
  const filter = createFileFilter({ strategy: options.strategy, include: options.include, exclude: options.exclude })
  const ignored: IgnoredFile[] = []
  const files = await walkFiles(absoluteRoot, filter, (file) => ignored.push(file))
  const exported = await readExportManifest(absoluteRoot)
  const slugFor = exported.size === 0 ? options.slugFor : (file: Parameters<typeof slugForFile>[0]) => exported.get(file.relativePath) ?? slugForFile(file)
  const result = await importFiles(db, files, { ...options, slugFor })
  ignored.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { ...result, root: absoluteRoot, strategy: options.strategy, ignored }
}
