/**
 * A search result is `stale` when its page was last written more than STALE_AFTER_DAYS before
 * the search ran (pages.updated_at, which every content change moves). It warns a reader or an
 * agent that the text may no longer be true; it does not affect ranking.
 */
export const STALE_AFTER_DAYS = 180

const DAY_MS = 24 * 60 * 60 * 1000

export function isStale(updatedAt: Date, now: Date): boolean {
  return now.getTime() - updatedAt.getTime() > STALE_AFTER_DAYS * DAY_MS
}
