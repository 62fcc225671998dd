import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A new temporary folder holding these files (paths relative to it, folders made as needed). */
export function writeTree(prefix: string, files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), prefix))
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), body)
  }
  return root
}
