/**
 * Parsers for git's machine output (`-z`, NUL-separated, paths never quoted). Pure functions, so
 * every status letter and odd path is covered by plain unit tests.
 */

/** A regular file, executable or not; symlinks (120000) and submodules (160000) are not files. */
export function isRegularFileMode(mode: string): boolean {
  return mode === '100644' || mode === '100755' || mode === '100664'
}

type DiffStatus = 'A' | 'M' | 'D' | 'R' | 'C' | 'T'

export interface DiffEntry {
  status: DiffStatus
  /** Similarity percentage for R and C. */
  score: number | null
  srcMode: string
  dstMode: string
  /** Blob of the new side; all zeros for D. */
  dstSha: string
  /** The old path for R and C, else the path. */
  srcPath: string
  /** The new path for R and C, else the path. */
  dstPath: string
}

const KNOWN: ReadonlySet<string> = new Set(['A', 'M', 'D', 'R', 'C', 'T'])

/**
 * Parses `git diff --raw -z --no-abbrev` output:
 * `:<srcMode> <dstMode> <srcSha> <dstSha> <status>[score]\0<path>\0[<newPath>\0]`.
 * Unmerged (U) and unknown (X) entries name no committed file and are dropped.
 */
export function parseDiffRaw(output: string): DiffEntry[] {
  const fields = output.split('\0')
  const entries: DiffEntry[] = []
  let i = 0
  while (i < fields.length) {
    const header = fields[i++]!
    if (header === '') continue
    if (!header.startsWith(':')) throw new Error(`Unexpected git diff output near "${header.slice(0, 80)}"`)
    const [srcMode, dstMode, , dstSha, statusField] = header.slice(1).split(' ')
    const letter = (statusField ?? '').charAt(0)
    const twoPaths = letter === 'R' || letter === 'C'
    const srcPath = fields[i++] ?? ''
    const dstPath = twoPaths ? (fields[i++] ?? '') : srcPath
    if (!KNOWN.has(letter)) continue
    const score = twoPaths ? Number.parseInt(statusField!.slice(1), 10) : null
    entries.push({ status: letter as DiffStatus, score: Number.isNaN(score) ? null : score, srcMode: srcMode!, dstMode: dstMode!, dstSha: dstSha!, srcPath, dstPath })
  }
  return entries
}

export interface TreeEntry {
  mode: string
  type: string
  sha: string
  /** Bytes; null for submodules. */
  size: number | null
  path: string
}

/** Parses `git ls-tree -r -z --long`: `<mode> <type> <sha> <size>\t<path>\0`. */
export function parseLsTree(output: string): TreeEntry[] {
  const entries: TreeEntry[] = []
  for (const record of output.split('\0')) {
    if (record === '') continue
    const tab = record.indexOf('\t')
    if (tab < 0) throw new Error(`Unexpected git ls-tree output near "${record.slice(0, 80)}"`)
    const [mode, type, sha, size] = record.slice(0, tab).trim().split(/\s+/)
    entries.push({ mode: mode!, type: type!, sha: sha!, size: size === '-' || size === undefined ? null : Number(size), path: record.slice(tab + 1) })
  }
  return entries
}
