import { seriesOf } from './adjacent.js'
import type { PackItem } from './types.js'

type Rendered = Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date' | 'text'> & Partial<Pick<PackItem, 'source_id'>>

/**
 * Where an item comes from, in one short line: `[3] notes/probe:12 2025-04-02`. Every token of a
 * heading is one the evidence cannot use, so a first line is not named and the date stands bare.
 */
export function itemHeading(item: Pick<PackItem, 'n' | 'kind' | 'slug' | 'line' | 'page' | 'date'>): string {
  const kind = item.kind === 'hit' ? '' : ` ${item.kind}`
  const date = item.date !== null ? ` ${item.date}` : ''
  return `[${item.n}]${kind} ${place(item)}${date}`
}

function place(item: Pick<PackItem, 'slug' | 'line' | 'page'>): string {
  const line = item.line !== null && item.line > 1 ? `:${item.line}` : ''
  const page = item.page !== null ? ` p. ${item.page}` : ''
  return `${item.slug}${line}${page}`
}

/** The kinds of item that quote a page of prose or code, which a run of its series may share a heading with. */
const JOINABLE = new Set<PackItem['kind']>(['hit', 'adjacent', 'summary'])

/**
 * What a run of items shares: the same source, series (the slug but for its last number, so a
 * conversation's turns or two chunks of one page) and date. Null for an item that stands alone.
 */
export function runKey(item: Pick<PackItem, 'kind' | 'slug' | 'date'> & Partial<Pick<PackItem, 'source_id'>>): string | null {
  if (!JOINABLE.has(item.kind)) return null
  const series = seriesOf(item.slug)
  return JSON.stringify([item.source_id ?? '', series?.head ?? item.slug, series?.tail ?? '', item.date])
}

/** Whether `item` goes on in the run `previous` began: then the date and kind its heading would repeat are left out. */
function continuesRun(previous: Rendered | null | undefined, item: Rendered): boolean {
  if (!previous) return false
  const key = runKey(item)
  return key !== null && key === runKey(previous)
}

/** How an item is printed after `previous`: with its heading, as a line naming its slug, or as a bare line. */
export type ItemForm = 'heading' | 'line' | 'bare'

export function itemForm(item: Rendered, previous?: Rendered | null): ItemForm {
  if (!continuesRun(previous, item)) return 'heading'
  return follows(previous!, item) ? 'bare' : 'line'
}

/** Whether `item` is the next of its series after `previous` (turn 8 after turn 7, a page's next chunk). */
function follows(previous: Rendered, item: Rendered): boolean {
  const a = seriesOf(previous.slug)
  const b = seriesOf(item.slug)
  return a !== null && b !== null && (previous.line ?? 1) <= 1 && (item.line ?? 1) <= 1 && Number(b.digits) === Number(a.digits) + 1
}

/**
 * An item as the pack prints it and as it is counted against the budget. After an item of the same
 * run it is one line, `[4] chats/club/turn-8 Piet: …`: its own number and slug, so it stays citable
 * and findable, without the date and kind the run's first heading gave. The next turn of a series
 * after the one before it is `[5] Anna: …`: its slug is the one after, and its number still cites it.
 */
export function renderItem(item: Rendered, previous?: Rendered | null): string {
  const form = itemForm(item, previous)
  if (form === 'bare') return `[${item.n}] ${item.text}\n`
  if (form === 'line') return `[${item.n}] ${place(item)} ${item.text}\n`
  return `${itemHeading(item)}\n${item.text}\n`
}

/** All the items of a pack, each after the one before it, a blank line between runs. */
export function renderItems(items: readonly Rendered[]): string {
  return items.map((item, i) => `${i > 0 && !continuesRun(items[i - 1], item) ? '\n' : ''}${renderItem(item, items[i - 1])}`).join('')
}
