import { isCodePath } from '../../chunking/index.js'
import { codeSlugForPath, isNoteFileName, markdownSlugForPath } from '../../pages/index.js'
import type { FileFilter, FileKind } from './file-filter.js'

/**
 * The kind a path was imported as, judged by its name alone. Deleted and renamed paths have no
 * file left to filter, and may have been imported under an earlier strategy, so their page is
 * found by the kind their extension implies.
 */
export function kindByExtension(relativePath: string): FileKind | null {
  if (isNoteFileName(relativePath)) return 'markdown'
  return isCodePath(relativePath) ? 'code' : null
}

/** The slug a path's page has (or would have), or null when the path can name no page. */
export function slugForPath(relativePath: string, kind: FileKind | null = kindByExtension(relativePath)): string | null {
  if (kind === null) return null
  try {
    return kind === 'code' ? codeSlugForPath(relativePath) : markdownSlugForPath(relativePath)
  } catch {
    // A path that cannot form a valid slug was never imported, so no page can be at it.
    return null
  }
}

/**
 * A filter's verdict on one path without walking to it: every ancestor directory must be one the
 * walk would enter, and the file itself one it would import.
 */
export function acceptPath(filter: FileFilter, relativePath: string): FileKind | null {
  const parts = relativePath.split('/')
  for (let depth = 1; depth < parts.length; depth++) {
    if (!filter.enterDirectory(parts.slice(0, depth).join('/'))) return null
  }
  return filter.kindOf(relativePath)
}
