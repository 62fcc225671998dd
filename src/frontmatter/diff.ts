export interface LineChange {
  /** 1-based first line of the change in the original text. */
  line: number
  removed: string[]
  added: string[]
}

/** The changed region between two texts (common head and tail trimmed): enough to show a small fix. */
export function changedRegion(before: string, after: string): LineChange | null {
  if (before === after) return null
  const a = before.split('\n')
  const b = after.split('\n')
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return { line: head + 1, removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) }
}
