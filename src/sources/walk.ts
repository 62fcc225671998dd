import { opendir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { FileFilter, FileKind } from './file-filter.js'

export interface WalkedFile {
  relativePath: string
  absolutePath: string
  kind: FileKind
  size: number
}

/**
 * Lists the files a filter accepts below `root`, sorted by path. Symbolic links are never
 * followed (neither files nor directories): a link can point outside the source.
 */
export async function walkFiles(root: string, filter: FileFilter): Promise<WalkedFile[]> {
  const found: WalkedFile[] = []
  const pending: string[] = ['']
  while (pending.length > 0) {
    const relDir = pending.pop()!
    const dir = await opendir(join(root, relDir))
    for await (const entry of dir) {
      const relativePath = relDir === '' ? entry.name : `${relDir}/${entry.name}`
      if (entry.isSymbolicLink()) continue
      if (entry.isDirectory()) {
        if (filter.enterDirectory(relativePath)) pending.push(relativePath)
      } else if (entry.isFile()) {
        const kind = filter.kindOf(relativePath)
        if (!kind) continue
        const absolutePath = join(root, relativePath)
        found.push({ relativePath, absolutePath, kind, size: (await stat(absolutePath)).size })
      }
    }
  }
  return found.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0))
}
