import type { PackItem } from './types.js'

/** Where an item comes from, in one line: `[3] notes/probe (line 12, 2025-04-02)`. */
export function itemHeading(item: Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date'>): string {
  const where = [item.page !== null ? `p. ${item.page}` : null, item.line !== null ? `line ${item.line}` : null, item.date].filter((x) => x !== null)
  const kind = item.kind === 'hit' ? '' : ` ${item.kind}`
  return `[${item.n}]${kind} ${item.slug}${where.length > 0 ? ` (${where.join(', ')})` : ''}`
}

/** An item as the pack prints it and as it is counted against the budget. */
export function renderItem(item: Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date' | 'text'>): string {
  return `${itemHeading(item)}\n${item.text}\n`
}
