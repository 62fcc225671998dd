import type { PackItem } from './types.js'

/**
 * Where an item comes from, in one short line: `[3] notes/probe:12 2025-04-02`. Every token of a
 * heading is one the evidence cannot use, so a first line is not named and the date stands bare.
 */
export function itemHeading(item: Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date'>): string {
  const kind = item.kind === 'hit' ? '' : ` ${item.kind}`
  const line = item.line !== null && item.line > 1 ? `:${item.line}` : ''
  const page = item.page !== null ? ` p. ${item.page}` : ''
  const date = item.date !== null ? ` ${item.date}` : ''
  return `[${item.n}]${kind} ${item.slug}${line}${page}${date}`
}

/** An item as the pack prints it and as it is counted against the budget. */
export function renderItem(item: Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date' | 'text'>): string {
  return `${itemHeading(item)}\n${item.text}\n`
}
