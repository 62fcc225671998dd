import { opendir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { FileFilter, FileKind } from './file-filter.js'

/** A file of an accepted name that is not imported, and why. */
export interface IgnoredFile {
  path: string
  /** `not_a_chat_log`: a `.jsonl` file of data, taken by its name for a chat or agent log. */
  reason: 'symbolic_link' | 'not_a_regular_file' | 'not_a_chat_log'
}

export interface WalkedFile {
  relativePath: string
  absolutePath: string
  kind: FileKind
  size: number
}

/**
 * Lists the files a filter accepts below `root`, sorted by path. Symbolic links are never
 * followed (neither files nor directories): a link can point outside the source. Links, pipes,
 * sockets and devices that the filter would otherwise take go to `onIgnored`, so nothing is left
 * out without a word.
 */
export async function walkFiles(root: string, filter: FileFilter, onIgnored?: (file: IgnoredFile) => void): Promise<WalkedFile[]> {
  const found: WalkedFile[] = []
  const pending: string[] = ['']
  while (pending.length > 0) {
    const relDir = pending.pop()!
    const dir = await opendir(join(root, relDir))
    for await (const entry of dir) {
      const relativePath = relDir === '' ? entry.name : `${relDir}/${entry.name}`
      if (entry.isSymbolicLink()) {
        if (filter.kindOf(relativePath) || filter.enterDirectory(relativePath)) onIgnored?.({ path: relativePath, reason: 'symbolic_link' })
        continue
      }
      if (entry.isDirectory()) {
        if (filter.enterDirectory(relativePath)) pending.push(relativePath)
      } else if (entry.isFile()) {
        const kind = filter.kindOf(relativePath)
        if (!kind) continue
        const absolutePath = join(root, relativePath)
        found.push({ relativePath, absolutePath, kind, size: (await stat(absolutePath)).size })
      } else if (filter.kindOf(relativePath)) onIgnored?.({ path: relativePath, reason: 'not_a_regular_file' })
    }
  }
  return found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0))
}
