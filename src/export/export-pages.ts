import { mkdir, readFile, rename, stat, unlink, writeFile, access } from 'node:fs/promises'
import { constants } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { SqlExecutor } from '../db/index.js'
import { ValidationError, diskErrorFrom } from '../errors/index.js'
import { EXPORT_MANIFEST, slugForFile, type ExportManifest } from '../intake/import/index.js'
import { DEFAULT_SOURCE_ID, serializePage, type Page } from '../pages/index.js'
import { containedDirectory, lexicallyWithin, outsideRoot } from '../util/index.js'
import { pagesToExport, type ExportFilter } from './export-query.js'

/** One page as the file an export writes: where (relative to the folder), and what. */
export interface ExportFile {
  path: string
  slug: string
  source_id: string
  page_kind: Page['pageKind']
  content: string
}

export interface ExportOptions extends ExportFilter {
  /** Replace files that exist with other content; without it the export refuses and writes nothing. */
  force?: boolean
  onProgress?: (progress: { done: number; total: number }) => void
}

export interface ExportResult {
  dir: string
  pages: number
  written: number
  unchanged: number
  bytes: number
  sources: string[]
  /** Files whose slug their path alone would not give back, listed in the manifest. */
  manifest_entries: number
}

interface PlannedFile {
  path: string
  relativePath: string
  content: string
}

/** A page as its export file. */
export function exportFileOf(page: Page): ExportFile {
  return { path: relativePathOf(page), slug: page.slug, source_id: page.sourceId, page_kind: page.pageKind, content: serializePage(page) }
}

/** Where a page goes: `<slug>.md` (code pages: their file path), other sources under `.sources/<id>/`. */
function relativePathOf(page: Page): string {
  const base = page.sourceId === DEFAULT_SOURCE_ID ? '' : `.sources/${page.sourceId}/`
  const name = page.pageKind === 'code' && typeof page.frontmatter.path === 'string' ? page.frontmatter.path : `${page.slug}.md`
  return `${base}${name}`
}

async function prepareTarget(dir: string): Promise<string> {
  const absolute = resolve(dir)
  const info = await stat(absolute).catch(() => null)
  if (info && !info.isDirectory()) {
    throw new ValidationError('export_target_not_directory', `${absolute} exists and is not a folder; nothing was written.`, { hint: 'Name a new or existing folder.' })
  }
  try {
    await mkdir(absolute, { recursive: true })
    await access(absolute, constants.W_OK)
  } catch (err) {
    throw diskErrorFrom(err, absolute) ?? new ValidationError('export_not_writable', `Cannot write into ${absolute}; nothing was written.`, { hint: 'Choose a folder you can write to.', cause: err })
  }
  return absolute
}

async function existingText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}

/** Temporary file beside the target, then a rename: a reader never sees half a page. */
async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = join(dirname(path), `.${process.pid}-${Math.random().toString(36).slice(2)}.brain-export.tmp`)
  try {
    await writeFile(temporary, content, 'utf8')
    await rename(temporary, path)
  } catch (err) {
    await unlink(temporary).catch(() => undefined)
    throw diskErrorFrom(err, path) ?? err
  }
}

/**
 * Writes the chosen pages as files that import back into the same pages: markdown with its
 * front matter, tags and timeline; code pages as their source. Plans every file first, so a
 * refusal (an overwrite without force, a path that would leave the folder) writes nothing.
 */
export async function exportPages(db: SqlExecutor, dir: string, options: ExportOptions = {}): Promise<ExportResult> {
  const root = await prepareTarget(dir)
  return writeExport(root, (await pagesToExport(db, options)).map(exportFileOf), options)
}

/**
 * Writes export files into a folder, whoever made them: this brain's pages, or a remote brain's
 * read through its operations on a thin client. The same files either way.
 */
export async function writeExport(dir: string, files: readonly ExportFile[], options: Pick<ExportOptions, 'force' | 'onProgress'> = {}): Promise<ExportResult> {
  const root = await prepareTarget(dir)
  const planned: PlannedFile[] = []
  const conflicts: string[] = []
  let unchanged = 0
  const manifest: ExportManifest = { format: 'brain-export', version: 1, slugs: {} }
  for (const file of files) {
    const relativePath = file.path
    const path = resolve(root, relativePath)
    if (!lexicallyWithin(root, path)) throw outsideRoot(root, path)
    const content = file.content
    const inDefault = file.source_id === DEFAULT_SOURCE_ID
    if (inDefault && slugForFileSafe(relativePath, file.page_kind) !== file.slug) manifest.slugs[relativePath] = file.slug
    const before = await existingText(path)
    if (before === content) {
      unchanged++
      continue
    }
    if (before !== null && !options.force) conflicts.push(relative(root, path).split(sep).join('/'))
    planned.push({ path, relativePath, content })
  }
  if (conflicts.length > 0) {
    throw new ValidationError(
      'export_would_overwrite',
      `${conflicts.length} file${conflicts.length === 1 ? '' : 's'} in ${root} would be overwritten (${conflicts.slice(0, 3).join(', ')}${conflicts.length > 3 ? ', …' : ''}); nothing was written.`,
      {
        hint: 'Export into an empty folder, or pass --force to replace them.',
      },
    )
  }
  let bytes = 0
  for (const [index, file] of planned.entries()) {
    await containedDirectory(root, dirname(file.relativePath), { create: true })
    await writeAtomically(file.path, file.content)
    bytes += Buffer.byteLength(file.content, 'utf8')
    options.onProgress?.({ done: index + 1, total: planned.length })
  }
  const manifestEntries = Object.keys(manifest.slugs).length
  if (manifestEntries > 0) await writeAtomically(join(root, EXPORT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  return {
    dir: root,
    pages: files.length,
    written: planned.length,
    unchanged,
    bytes,
    sources: [...new Set(files.map((f) => f.source_id))].sort(),
    manifest_entries: manifestEntries,
  }
}

function slugForFileSafe(relativePath: string, kind: Page['pageKind']): string | null {
  try {
    return slugForFile({ relativePath, kind })
  } catch {
    return null
  }
}
