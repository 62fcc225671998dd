import { createTwoFilesPatch } from 'diff'

function lines(text: string): string[] {
  if (text === '') return []
  const split = text.split('\n')
  if (split[split.length - 1] === '') split.pop()
  return split
}

/**
 * Lines added and removed between two texts, counted as multisets of lines: linear in the
 * size of the pages, so a write never waits on a diff. It equals a line diff's counts except
 * for lines that only moved, which it does not count.
 */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>()
  for (const line of lines(before)) counts.set(line, (counts.get(line) ?? 0) + 1)
  let added = 0
  for (const line of lines(after)) {
    const left = counts.get(line) ?? 0
    if (left > 0) counts.set(line, left - 1)
    else added++
  }
  let removed = 0
  for (const left of counts.values()) removed += left
  return { added, removed }
}

/** Past this many differing lines the diff is given as a whole replacement, not searched for. */
const MAX_EDIT_LENGTH = 20_000

/** A unified diff (`---`/`+++` headers, three lines of context). */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string): string {
  const patch = createTwoFilesPatch(fromLabel, toLabel, before, after, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH })
  if (patch !== undefined) return patch
  const old = lines(before)
  const now = lines(after)
  const hunk = [`@@ -1,${old.length} +1,${now.length} @@`, ...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)]
  return [`--- ${fromLabel}`, `+++ ${toLabel}`, ...hunk, ''].join('\n')
}
