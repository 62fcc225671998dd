import type { SqlExecutor } from '../db/index.js'
import { archiveCurrentContent, lineChanges, versionsCode } from '../history/index.js'
import { lockPageById } from './page-repository.js'
import { serializePage } from './serialize.js'
import type { Page } from './types.js'

type Content = Pick<Page, 'title' | 'type' | 'tags' | 'frontmatter' | 'compiledTruth' | 'timeline' | 'pageKind'>

interface WriteChanges {
  linesAdded: number | null
  linesRemoved: number | null
}

const UNRECORDED: WriteChanges = { linesAdded: null, linesRemoved: null }

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/**
 * The history side of a write, in its transaction: the content it replaces becomes the page's
 * next version (markdown pages always, code pages when `history.version_code` is on), and the
 * lines the write adds and removes are returned for the page row, so the version it later
 * becomes carries them and listing a history never diffs.
 */
export async function recordWrite(tx: SqlExecutor, existingId: number | null, next: Content, keepVersions: boolean): Promise<WriteChanges> {
  if (next.pageKind === 'code' && (existingId === null || !(await versionsCode(tx)))) return UNRECORDED
  const nextMarkdown = serializePage(next)
  if (existingId === null) return { linesAdded: lineCount(nextMarkdown), linesRemoved: 0 }
  const previous = keepVersions ? await archiveCurrentContent(tx, existingId) : await lockPageById(tx, existingId)
  if (!previous) return { linesAdded: lineCount(nextMarkdown), linesRemoved: 0 }
  const changes = lineChanges(serializePage(previous), nextMarkdown)
  return { linesAdded: changes.added, linesRemoved: changes.removed }
}
