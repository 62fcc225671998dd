/**
 * What memory volunteers for one conversation turn, with no model: the entities the turn names
 * and the code it names, from the active source only, each once per session, within a token
 * budget.
 */
import type { SqlExecutor } from '../db/index.js'
import { capToTokenLimit, countTokens } from '../embedding/tokens.js'
import { NotFoundError } from '../errors/index.js'
import { DEFAULT_SOURCE_ID } from '../pages/types.js'
import { codeIdentifiers, findCodeDefinitions, type CodeDefinitionHit } from './code-ids.js'
import { pageExcerpt } from './excerpt.js'
import { matchEntities, sourceState, type EntityMatch } from './names.js'
import { claimVolunteered, volunteered } from './sessions.js'

export const DEFAULT_RECALL_BUDGET = 300
/** No page takes more than this (or a third of a larger budget): several short pointers beat one long one. */
const PAGE_TOKENS = 90
/** An excerpt cut below this says nothing; the page is left out instead. */
const MIN_EXCERPT_TOKENS = 8
/** Of a longer turn, the head and the tail are read: a pasted log or file rarely names what the ask at either end does not. */
const MAX_TEXT_CHARS = 20_000

/** The part of a turn recall reads: all of it, or its first and last halves of MAX_TEXT_CHARS. */
export function boundedTurn(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text
  const half = MAX_TEXT_CHARS / 2
  // A line break between the two keeps a name from running across the cut.
  return `${text.slice(0, half)}\n\n${text.slice(text.length - half)}`
}

export interface RecallInput {
  text: string
  sessionId?: string | null
  sourceId?: string | null
  budget?: number | null
}

export interface RecallItem {
  slug: string
  source_id: string
  title: string
  type: string
  reason: string
  excerpt: string
}

export interface RecallResult {
  inject: RecallItem[]
  tokens: number
  session: string | null
}

interface Candidate {
  /** Session key: the page id, or the page id and symbol of a definition. */
  item: string
  updatedAt: Date | null
  head: Omit<RecallItem, 'excerpt'>
  excerpt: string
}

interface PageRow {
  id: string | number
  slug: string
  source_id: string
  title: string
  type: string
  summary: string | null
  compiled_truth: string
  timeline: string
  updated_at: Date
}

async function entityCandidates(db: SqlExecutor, sourceId: string, matches: readonly EntityMatch[]): Promise<Candidate[]> {
  if (matches.length === 0) return []
  const { rows } = await db.query<PageRow>(
    `SELECT id, slug, source_id, title, type, frontmatter->>'summary' AS summary, left(compiled_truth, 4000) AS compiled_truth,
            right(timeline, 8000) AS timeline, updated_at
     FROM pages WHERE id = ANY($1::bigint[]) AND source_id = $2`,
    [matches.map((m) => String(m.entity.id)), sourceId],
  )
  const byId = new Map(rows.map((r) => [Number(r.id), r]))
  const out: Candidate[] = []
  for (const match of matches) {
    const row = byId.get(match.entity.id)
    if (!row) continue
    out.push({
      item: String(match.entity.id),
      updatedAt: new Date(row.updated_at),
      head: { slug: row.slug, source_id: row.source_id, title: row.title, type: row.type, reason: `named "${match.named}"` },
      excerpt: pageExcerpt({ summary: row.summary, compiledTruth: row.compiled_truth, timeline: row.timeline }),
    })
  }
  return out
}

function codeCandidate(hit: CodeDefinitionHit): Candidate {
  return {
    item: `${hit.pageId}#${hit.qualified}`,
    updatedAt: null,
    head: { slug: hit.slug, source_id: hit.sourceId, title: hit.qualified, type: 'code', reason: `defines ${hit.name} (${hit.symbolType})` },
    excerpt: `${hit.line === null ? '' : `L${hit.line}: `}${hit.signature}`,
  }
}

/** The line a person (or an agent's context) reads for one item; its tokens are what the budget counts. */
export function recallLine(item: Pick<RecallItem, 'slug' | 'title' | 'type' | 'excerpt'>): string {
  return `${item.title} (${item.type}, ${item.slug}): ${item.excerpt}`
}

/** Fits the ranked candidates into the budget: each gets its share of what is left, excerpts cut to fit. */
function fitBudget(candidates: readonly Candidate[], budget: number): { items: RecallItem[]; tokens: number } {
  const items: RecallItem[] = []
  let used = 0
  const pageCap = Math.max(PAGE_TOKENS, Math.floor(budget / 3))
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!
    const left = budget - used
    const share = Math.min(pageCap, Math.floor(left / (candidates.length - i)))
    const headTokens = countTokens(recallLine({ ...candidate.head, excerpt: '' }))
    const room = Math.max(share, Math.min(left, headTokens + MIN_EXCERPT_TOKENS)) - headTokens
    if (room < MIN_EXCERPT_TOKENS && candidate.excerpt !== '') continue
    let excerpt = candidate.excerpt
    if (countTokens(excerpt) > room) excerpt = `${capToTokenLimit(excerpt, room - 1).trimEnd()}…`
    const item = { ...candidate.head, excerpt }
    const tokens = countTokens(recallLine(item))
    if (tokens > left) continue
    items.push(item)
    used += tokens
  }
  return { items, tokens: used }
}

/** Drops what the session was already told, unless the page changed since. */
function unseen(candidates: readonly Candidate[], seen: ReadonlyMap<string, Date>): Candidate[] {
  return candidates.filter((c) => {
    const at = seen.get(c.item)
    return at === undefined || (c.updatedAt !== null && c.updatedAt > at)
  })
}

export async function recall(db: SqlExecutor, input: RecallInput): Promise<RecallResult> {
  const sourceId = input.sourceId ?? DEFAULT_SOURCE_ID
  const session = input.sessionId ?? null
  const budget = input.budget ?? DEFAULT_RECALL_BUDGET
  const text = boundedTurn(input.text)
  const { table, hasCode, known } = await sourceState(db, sourceId)
  if (!known) throw new NotFoundError('source_not_found', `No source "${sourceId}".`, { hint: 'List sources with `brain sources list`, or add one with `brain sources add`.' })
  const matches = matchEntities(text, table)
  // Titles before aliases, then the order the turn names them in.
  matches.sort((a, b) => Number(b.byTitle) - Number(a.byTitle) || a.position - b.position)
  const entities = await entityCandidates(db, sourceId, matches)
  const code = hasCode ? (await findCodeDefinitions(db, sourceId, codeIdentifiers(text))).map(codeCandidate) : []
  let candidates = [...entities, ...code]
  if (candidates.length === 0) return { inject: [], tokens: 0, session }
  if (session !== null) candidates = unseen(candidates, await volunteered(db, session, sourceId))
  const { items, tokens } = fitBudget(candidates, budget)
  if (session === null || items.length === 0) return { inject: items, tokens, session }
  // Another recall of the session may have told some of them meanwhile: only what this one claims is said.
  const keyOf = new Map(candidates.map((c) => [`${c.head.slug}\u0000${c.head.title}`, c.item]))
  const claimed = await claimVolunteered(
    db,
    session,
    sourceId,
    items.map((i) => keyOf.get(`${i.slug}\u0000${i.title}`)!),
  )
  const told = items.filter((i) => claimed.has(keyOf.get(`${i.slug}\u0000${i.title}`)!))
  return { inject: told, tokens: told.length === items.length ? tokens : told.reduce((n, i) => n + countTokens(recallLine(i)), 0), session }
}
