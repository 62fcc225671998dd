import { lstat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { NotFoundError, serializeError, UsageError, ValidationError, type ErrorEnvelope } from '../errors/index.js'
import { isMarkdownFileName, markdownSlugForPath } from '../pages/index.js'
import { createFileFilter, readTextFile, walkFiles, type FileFilter } from '../intake/sources/index.js'
import type { ParseValidationError } from './codes.js'
import { canonicalPath, owningRoot, type PageRoot } from './roots.js'
import { validateFrontmatter, type SlugExpectation } from './validate.js'

export interface ScannedFile {
  /** Canonical absolute path. */
  path: string
  sourceId: string | null
  /** What `slug:` should say; null when the file is outside every source (any trailing path part is then accepted). */
  expectedSlug: string | null
  text: string | null
  errors: ParseValidationError[]
  /** Set when the file could not be read as text (it is then not validated). */
  readError: ErrorEnvelope | null
}

export function expectationFor(path: string, roots: readonly PageRoot[]): { expected: SlugExpectation; expectedSlug: string | null; sourceId: string | null } {
  const owner = owningRoot(path, roots)
  if (owner && owner.relativePath !== '') {
    try {
      const slug = markdownSlugForPath(owner.relativePath)
      return { expected: { slug }, expectedSlug: slug, sourceId: owner.root.sourceId }
    } catch {
      // A path that makes no valid slug is judged like a file outside every source.
    }
  }
  return { expected: { path }, expectedSlug: null, sourceId: owner?.root.sourceId ?? null }
}

export async function scanFile(path: string, roots: readonly PageRoot[]): Promise<ScannedFile> {
  const { expected, expectedSlug, sourceId } = expectationFor(path, roots)
  try {
    const text = await readTextFile(path, { allowNul: true })
    return { path, sourceId, expectedSlug, text, errors: validateFrontmatter(text, { expected }), readError: null }
  } catch (err) {
    return { path, sourceId, expectedSlug, text: null, errors: [], readError: serializeError(err) }
  }
}

/** The markdown files below a directory, as sync would pick them (symlinks never followed); plain-text notes have no front matter to check. */
export async function markdownFilesIn(dir: string, filter: FileFilter): Promise<string[]> {
  const files = await walkFiles(dir, filter)
  return files.filter((f) => f.kind === 'markdown' && isMarkdownFileName(f.relativePath)).map((f) => f.absolutePath)
}

/** Resolves a user-given path to a canonical one, refusing what does not exist. */
export async function resolveTarget(target: string, cwd: string): Promise<{ path: string; isDirectory: boolean }> {
  const absolute = resolve(cwd, target)
  let info
  try {
    info = await lstat(absolute)
  } catch {
    throw new NotFoundError('path_not_found', `${absolute} does not exist.`, { hint: 'Pass a .md file or a directory.' })
  }
  if (info.isSymbolicLink()) throw new ValidationError('symlink_refused', `${absolute} is a symbolic link; links are never followed.`, { hint: 'Pass the real path.' })
  const path = (await canonicalPath(absolute)) ?? absolute
  if (!info.isDirectory() && !isMarkdownFileName(path)) {
    throw new UsageError('not_markdown', `${absolute} is not a markdown file (.md, .markdown, .mdx).`, { hint: 'Pass a .md file or a directory.' })
  }
  return { path, isDirectory: info.isDirectory() }
}

/** Validates one file, or every markdown file below a directory. */
export async function scanPath(target: { path: string; isDirectory: boolean }, roots: readonly PageRoot[]): Promise<ScannedFile[]> {
  if (!target.isDirectory) return [await scanFile(target.path, roots)]
  // Walk with sync's defaults, then let each file's own source judge it (its strategy and globs
  // are relative to the source root, which may lie above the directory named).
  const walked = await markdownFilesIn(target.path, createFileFilter({ strategy: 'markdown' }))
  const files = walked.filter((file) => pickedBySync(file, roots))
  return scanFiles(files, roots)
}

/** Files are read a few at a time: the scan waits on the disk, not on the CPU. */
const READ_CONCURRENCY = 16

export async function scanFiles(files: readonly string[], roots: readonly PageRoot[], signal?: AbortSignal): Promise<ScannedFile[]> {
  const scanned: ScannedFile[] = new Array(files.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      signal?.throwIfAborted()
      const index = next++
      scanned[index] = await scanFile(files[index]!, roots)
    }
  }
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker))
  return scanned
}

/**
 * Whether sync would import this file as a page: a file inside a source that the source's
 * filter leaves out (a README, a file under `.raw/` or an excluded glob) is not checked.
 * Files outside every source are always checked: the user named them.
 */
export function pickedBySync(path: string, roots: readonly PageRoot[]): boolean {
  const owner = owningRoot(path, roots)
  if (!owner || owner.relativePath === '') return true
  const config = owner.root.config
  const filter = createFileFilter({ strategy: config?.strategy ?? 'markdown', include: config?.include, exclude: config?.exclude })
  const parts = owner.relativePath.split('/')
  for (let i = 1; i < parts.length; i++) {
    if (!filter.enterDirectory(parts.slice(0, i).join('/'))) return false
  }
  return filter.kindOf(owner.relativePath) === 'markdown'
}
