import { readFileSync } from 'node:fs'
import type { SqlExecutor } from '../../db/index.js'
import type { WalkedFile } from '../sources/index.js'

/** Below this many files an import is one batch or a few, and the order saves next to nothing. */
const MIN_ORDERED_FILES = 100

/** Notes larger than this are not read for the order: they keep their place among the rest. */
const MAX_SCANNED_BYTES = 1024 * 1024
/** Files read between two turns of the event loop. */
const READ_SLICE = 64

/** `[[Target`, `![[Target`, and the path of a markdown link `](path`. */
const LINK_TARGET = /\[\[([^\]|#^\n]+)|\]\(<?([^)>\s#]+)/g

/** The lower-cased file name without `.md`: what most links in a vault name their note by. */
function fileKey(path: string): string {
  const name = path
    .slice(path.lastIndexOf('/') + 1)
    .normalize('NFC')
    .toLowerCase()
  return name.endsWith('.md') ? name.slice(0, -3) : name
}

function linkKey(target: string, markdownLink: boolean): string | null {
  let text = target.trim()
  if (markdownLink) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return null
    try {
      text = decodeURIComponent(text)
    } catch {
      return null
    }
  }
  return text === '' ? null : fileKey(text)
}

async function countLinkTargets(files: readonly WalkedFile[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  const scanned = files.filter((f) => f.size <= MAX_SCANNED_BYTES)
  for (let i = 0; i < scanned.length; i++) {
    // Reads in a row: an asynchronous read cost ten times its system calls here. The event loop
    // gets a turn between slices, so a service importing a large vault still answers.
    if (i > 0 && i % READ_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
    let text = ''
    try {
      text = readFileSync(scanned[i]!.absolutePath, 'utf8')
    } catch {
      // A file that cannot be read now fails in the import itself; here it counts no link.
    }
    for (const match of text.matchAll(LINK_TARGET)) {
      const key = match[1] !== undefined ? linkKey(match[1], false) : linkKey(match[2]!, true)
      if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  }
  return counts
}

/**
 * The notes of a source's first import, the most linked to first (ties in path order). A link
 * written before the page it names exists is stored unresolved and rewritten when the page
 * arrives; in a vault a few notes (people, projects, maps of content) gather most links, and
 * writing them first leaves far fewer links to rewrite. Only the order changes: links resolve by
 * the same rules in any order, and the counting is a quick look at the text, not the link parser.
 * Imports holding code keep path order, since a note cites only code written before it.
 */
export async function mostLinkedFirst(db: SqlExecutor, sourceId: string, files: readonly WalkedFile[]): Promise<readonly WalkedFile[]> {
  if (files.length < MIN_ORDERED_FILES || files.some((f) => f.kind !== 'markdown')) return files
  const { rows } = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pages WHERE source_id = $1) AS found', [sourceId])
  if (rows[0]?.found) return files
  const counts = await countLinkTargets(files)
  const inbound = (f: WalkedFile): number => counts.get(fileKey(f.relativePath)) ?? 0
  return files
    .map((file, index) => ({ file, index, links: inbound(file) }))
    .sort((a, b) => b.links - a.links || a.index - b.index)
    .map((e) => e.file)
}
