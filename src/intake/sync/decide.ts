import type { FullWalkReason } from './types.js'

export interface WalkInputs {
  lastCommit: string | null
  head: string
  /** sources.chunker_version as stored (text, or null when never recorded). */
  storedChunkerVersion: string | null
  currentChunkerVersion: string
  full: boolean
  /** Whether the bookmark commit still exists (history may have been rewritten). */
  bookmarkReachable: boolean
}

export type WalkDecision = { kind: 'up_to_date' } | { kind: 'incremental' } | { kind: 'full'; reason: FullWalkReason }

/**
 * What a sync does before it touches anything. The chunker version is compared first: pages
 * built by another chunker are rebuilt by a full walk even when HEAD has not moved.
 */
export function decideWalk(input: WalkInputs): WalkDecision {
  if (input.full) return { kind: 'full', reason: 'full_requested' }
  if (input.lastCommit === null) return { kind: 'full', reason: 'first_sync' }
  if (input.storedChunkerVersion !== input.currentChunkerVersion) return { kind: 'full', reason: 'chunker_version' }
  if (input.lastCommit === input.head) return { kind: 'up_to_date' }
  if (!input.bookmarkReachable) return { kind: 'full', reason: 'bookmark_unreachable' }
  return { kind: 'incremental' }
}
