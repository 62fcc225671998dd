/**
 * Pages next to a page in a numbered series: the same slug with its last number one less or one
 * more (`chats/club/turn-7` → `turn-6`, `turn-8`; `daily/2024-05-06` → `2024-05-05`,
 * `2024-05-07`). A conversation kept one turn per page, chapters or days: the answer to a
 * question often sits in the turn after the one that shares the question's words, and shares
 * none of them itself.
 */
import type { SqlExecutor } from '../db/index.js'
import { PAGE_COLUMNS, type PageRow } from './gather.js'

const LAST_NUMBER = /^(.*?)(\d+)(\D*)$/

/** A slug's series (what comes before and after its last number) and its place in it; null when it holds no number. */
export function seriesOf(slug: string): { head: string; digits: string; tail: string } | null {
  const match = LAST_NUMBER.exec(slug)
  return match ? { head: match[1] ?? '', digits: match[2] ?? '0', tail: match[3] ?? '' } : null
}

/** The slugs one before and one after `slug` in its series; none when it holds no number. */
export function adjacentSlugs(slug: string): string[] {
  const series = seriesOf(slug)
  if (!series) return []
  const { head, digits, tail } = series
  const value = Number(digits)
  // A zero-padded number keeps its width (`day-09` → `day-10`); an unpadded one grows freely.
  const width = digits.startsWith('0') ? digits.length : 1
  const spell = (n: number): string => `${head}${String(n).padStart(width, '0')}${tail}`
  return [...(value > 0 ? [spell(value - 1)] : []), spell(value + 1)]
}

/** The slug one after `slug` in its series; null when it holds no number. */
function nextSlug(slug: string): string | null {
  return adjacentSlugs(slug).at(-1) ?? null
}

type Placed = Pick<PageRow, 'id' | 'slug' | 'source_id'>

/**
 * The pages of the same source next to each of `around` in its series (before and after), and
 * the page after each of `before`, in the asked source only; one statement.
 */
export async function adjacentPages(db: SqlExecutor, around: readonly Placed[], source: string | null, before: readonly Placed[] = []): Promise<Array<PageRow & { beside: number }>> {
  const wanted = [
    ...around.flatMap((page) => adjacentSlugs(page.slug).map((slug) => ({ slug, source_id: page.source_id, beside: page.id }))),
    ...before.flatMap((page) => {
      const slug = nextSlug(page.slug)
      return slug === null ? [] : [{ slug, source_id: page.source_id, beside: page.id }]
    }),
  ]
  if (wanted.length === 0) return []
  const { rows } = await db.query<PageRow & { beside: number }>(
    `SELECT ${PAGE_COLUMNS}, a.beside
     FROM unnest($1::text[], $2::text[], $3::int[]) AS a(source_id, slug, beside)
     JOIN pages p ON p.source_id = a.source_id AND p.slug = a.slug
     WHERE $4::text IS NULL OR p.source_id = $4`,
    [wanted.map((w) => w.source_id), wanted.map((w) => w.slug), wanted.map((w) => w.beside), source],
  )
  return rows
}
