import { capToTokenLimit, countTokens } from '../embedding/index.js'
import { UsageError } from '../errors/index.js'
import type { SearchDeps, SearchResult } from '../search/index.js'
import { adjacentPages, seriesOf } from './adjacent.js'
import { gatherHits } from './hits.js'
import { chatSpeaker } from './speakers.js'
import { definitionsNamed, linkedPages, pagesById, type ChunkRow, type DefinitionRow, type PageRow } from './gather.js'
import { resolveRelativeDates } from './dates.js'
import { itemForm, renderItem, runKey, type ItemForm } from './render.js'
import { trimToQuestion } from './trim.js'
import { asksAboutThePast, contentTerms, currentFacts, identifiersIn, isSupersededFact, lineOf, pageSummary, termCoverage, timelineEntries } from './text.js'
import type { ContextPack, PackItem, PackItemKind } from './types.js'

export const DEFAULT_PACK_BUDGET = 2000
export const MIN_PACK_BUDGET = 100
export const MAX_PACK_BUDGET = 32_000
/** No single item may take more than this share of the budget, so one long chunk cannot crowd out the rest. */
const ITEM_SHARE = 0.4
const HITS = 30
/** A larger budget asks search for more hits, about one per this many tokens, so it can be filled. */
const TOKENS_PER_HIT = 35
const MAX_HITS = 100
/**
 * A pack whose hits are mostly chat lines keeps this many times the hits its budget is expected to
 * hold: many chat lines are the other speaker's, which stand for their replies, or short remarks
 * (a chat line is cut to one sentence), and the evidence a question about a person's many doings
 * needs lies further down. Other packs keep the number the budget holds, so they weigh no more
 * candidates than they can use.
 */
const GATHER_DEPTH = 2
const PAGES_WITH_NEIGHBOURS = 5
/**
 * The first hit pages whose pages next in their series (the turn before and after) may join: one
 * per this many tokens of budget, at most MAX_PAGES_WITH_ADJACENT. The turns around one hit take up
 * to a tenth of a 1,000-token pack, room the hits further down use better there (measured on
 * LoCoMo: three pages at 1,000 tokens, five at 2,000).
 */
const TOKENS_PER_PAGE_WITH_ADJACENT = 400
const MAX_PAGES_WITH_ADJACENT = 5
/** An adjacent page ranks at this share of its hit's score. */
const ADJACENT_SHARE = 0.5
/** The page after a later hit that asks something (its answer) ranks at this share of that hit's score. */
const REPLY_SHARE = 1
const NEIGHBOURS = 20
const TIMELINE_ENTRIES = 8

export interface PackOptions {
  source?: string | null
  budget?: number
}

export interface PackDeps {
  search: SearchDeps
  /** cl100k tokens by default (the project's tokenizer). */
  countTokens?: (text: string) => number
}

interface Candidate extends Omit<PackItem, 'n' | 'tokens'> {
  key: string
  score: number
  /** The text compared when removing repeats (a summary without the title put before it, a hit before its dates were resolved). */
  own?: string
}

/**
 * The evidence for a question within a token budget, involving no model: hybrid hits, their
 * pages' summaries, the pages next to the first hits in their series (a conversation's turn
 * before and after), timeline entries and linked pages that bear on the question, and the code
 * definitions of identifiers it names; deduplicated, best first, numbered from 1.
 */
export async function buildContextPack(deps: PackDeps, question: string, options: PackOptions = {}): Promise<ContextPack> {
  const budget = checkBudget(options.budget)
  const source = options.source ?? null
  const db = deps.search.db
  const limit = Math.min(MAX_HITS, Math.max(HITS, Math.round(budget / TOKENS_PER_HIT)))
  const first = await gatherHits(deps.search, question, limit, source)
  // Whether the hits are chat is known only once they are read; a chat pack reads again, deeper,
  // and every other pack pays for no candidates it cannot use.
  const deeper = Math.min(MAX_HITS, Math.round(limit * GATHER_DEPTH))
  const { hits, chunks, notice, named } = deeper > limit && mostlyChat(first.hits, first.chunks) ? await gatherHits(deps.search, question, deeper, source) : first
  const terms = contentTerms(question)
  // A fact since replaced answers only a question about what held before.
  const past = asksAboutThePast(question)
  const chunkById = new Map(chunks.map((c) => [c.id, c]))
  const hitPageIds = [...new Set(hits.map((h) => chunkById.get(h.chunk_id)?.page_id).filter((id): id is number => id !== undefined))]
  const pages = new Map((await pagesById(db, hitPageIds, source)).map((p) => [p.id, p]))
  const neighbours = await linkedPages(db, hitPageIds.slice(0, PAGES_WITH_NEIGHBOURS), source, NEIGHBOURS)
  const names = identifiersIn(question).flatMap((id) => [id, id.split(/\.|::/).pop()!])
  const definitions = await definitionsNamed(db, [...new Set(names)], source, 10)

  const hitCandidates = hits.flatMap((hit, rank) => {
    const chunk = chunkById.get(hit.chunk_id)
    const page = chunk ? pages.get(chunk.page_id) : undefined
    return chunk && page
      ? [
          {
            page: page.id,
            asks: asks(chunk.chunk_text),
            other: spokenByOther(chunk.chunk_text, named),
            candidate: hitCandidate(hit, rank, past ? chunk.chunk_text : currentText(hit, chunk.chunk_text), page, terms),
          },
        ]
      : []
  })
  const pagesWithAdjacent = Math.min(MAX_PAGES_WITH_ADJACENT, Math.max(1, Math.round(budget / TOKENS_PER_PAGE_WITH_ADJACENT)))
  const firstPages = hitPageIds.slice(0, pagesWithAdjacent).flatMap((id) => pages.get(id) ?? [])
  // A later hit that asks something (the other speaker's question, a note's open question) is
  // followed by its answer, which often shares none of the question's words. Only a pack with room
  // for more than the first hits takes those answers: a small one holds little beyond the first
  // hits' own text, which is worth more there than the answers to the later ones. When the question
  // names chat speakers, a hit another speaker says is followed by the reply at every budget: the
  // other speaker brings up the named one's news ("Congrats on the opening, Jon!"), and the named
  // one's reply tells it ("Thanks! I'm excited and ready to give it my best").
  const asking = new Set(hitCandidates.filter((h) => h.other || (limit > HITS && h.asks)).map((h) => h.page))
  for (const page of firstPages) asking.delete(page.id)
  const askingPages = [...asking].flatMap((id) => pages.get(id) ?? [])
  const shareOf = (page: { beside: number }): number => (asking.has(page.beside) ? REPLY_SHARE : ADJACENT_SHARE)
  const besideScore = (page: { beside: number }): number => Math.max(0, ...hitCandidates.filter((h) => h.page === page.beside).map((h) => h.candidate.score)) * shareOf(page)
  const allAdjacent = await adjacentPages(db, firstPages, source, askingPages)
  const adjacent = allAdjacent.filter((page) => !pages.has(page.id))
  // A hit page next to one of the first hits ranks at least as that adjacent page would: the turn
  // around a good hit keeps its place though the search ranked it far down on its own.
  for (const page of allAdjacent.filter((p) => pages.has(p.id))) {
    const best = hitCandidates.find((h) => h.page === page.id)
    if (best !== undefined) best.candidate.score = Math.max(best.candidate.score, besideScore(page))
  }
  // An answer stands right after the hit that asked it, so it wins ties against later hits.
  const replies = adjacent.filter((page) => asking.has(page.beside))
  const placed = new Set<number>()
  const hitsWithReplies = hitCandidates.flatMap((h) => {
    if (placed.has(h.page)) return [h.candidate]
    placed.add(h.page)
    return [h.candidate, ...replies.filter((r) => r.beside === h.page).flatMap((r) => adjacentCandidates(r, besideScore(r), terms))]
  })

  const candidates: Candidate[] = [
    ...definitions.map(definitionCandidate),
    ...hitsWithReplies,
    ...adjacent.filter((page) => !asking.has(page.beside)).flatMap((page) => adjacentCandidates(page, besideScore(page), terms)),
    ...hitPageIds.slice(0, PAGES_WITH_NEIGHBOURS).flatMap((id, rank) => summaryCandidates(pages.get(id), 0.5 - rank * 0.05, 'summary', terms)),
    ...timelineCandidates([...hitPageIds.map((id) => pages.get(id)), ...neighbours], terms, past),
    ...neighbours.flatMap((page) => summaryCandidates(page, 0.25, 'neighbour', terms)),
  ]
  return { question, source, budget, ...fit(candidates, budget, deps.countTokens ?? countTokens), notice }
}

/** Whether a passage asks something: one of its sentences ends with a question mark. */
function asks(text: string): boolean {
  return /\?(?=["'”’)\]]*(\s|$))/.test(text)
}

/** Whether most of `hits` are one-line chat passages (`Name: …`). */
function mostlyChat(hits: readonly SearchResult[], chunks: readonly ChunkRow[]): boolean {
  const textOf = new Map(chunks.map((c) => [c.id, c.chunk_text]))
  return hits.filter((h) => chatSpeaker(textOf.get(h.chunk_id) ?? '') !== null).length * 2 > hits.length
}

/** Whether a passage is a chat line said by someone other than the speakers a question names (false when it names none). */
function spokenByOther(text: string, named: ReadonlySet<string>): boolean {
  if (named.size === 0) return false
  const speaker = chatSpeaker(text)
  return speaker !== null && !named.has(speaker.name)
}

function checkBudget(budget: number | undefined): number {
  if (budget === undefined) return DEFAULT_PACK_BUDGET
  if (!Number.isInteger(budget) || budget < MIN_PACK_BUDGET || budget > MAX_PACK_BUDGET) {
    throw new UsageError('invalid_budget', `The budget must be a whole number of tokens from ${MIN_PACK_BUDGET} to ${MAX_PACK_BUDGET}, not ${budget}.`)
  }
  return budget
}

function pageDate(page: Pick<PageRow, 'frontmatter' | 'updated_at'>): string | null {
  const date = page.frontmatter.date
  if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(date)) return date.slice(0, 10)
  return page.updated_at ? new Date(page.updated_at).toISOString().slice(0, 10) : null
}

function pdfPage(hit: SearchResult): number | null {
  if (hit.symbol_type !== 'pdf_page' || hit.symbol_name === null) return null
  const match = /(\d+)/.exec(hit.symbol_name)
  return match ? Number(match[1]) : null
}

/** A timeline chunk's text without the facts since replaced (all of it when nothing else is left). */
function currentText(hit: SearchResult, text: string): string {
  if (hit.chunk_source !== 'timeline') return text
  const current = currentFacts(text)
  return current.trim() === '' ? text : current
}

function hitCandidate(hit: SearchResult, rank: number, text: string, page: PageRow, terms: readonly string[]): Candidate {
  // A hit that shares no word with the question came from the vector side alone: keep it, after
  // the evidence that names what was asked.
  const shares = termCoverage(terms, `${page.title} ${text}`) > 0 || terms.length === 0
  const body = hit.chunk_source === 'timeline' ? page.timeline : page.compiled_truth
  const line = hit.start_line ?? (page.page_kind === 'code' ? null : lineOf(body, text))
  const written = page.page_kind === 'code' ? null : writtenOn(page)
  return {
    key: `chunk:${hit.chunk_id}`,
    // Past the first 25 hits the rank still orders them, above nothing else.
    score: Math.max(0.01, 1 - rank * 0.04) * (shares ? 1 : 0.5),
    kind: 'hit',
    slug: hit.slug,
    source_id: hit.source_id,
    title: hit.title,
    chunk_id: hit.chunk_id,
    line,
    page: pdfPage(hit),
    date: pageDate(page),
    text: shortened(resolveRelativeDates(text, written), page, terms),
    // Repeats are found on the page's own words, before dates were put in.
    own: text,
  }
}

/** A page next to a hit's page in its series: its opening, for the turn or day around the hit. */
function adjacentCandidates(page: PageRow, score: number, terms: readonly string[]): Candidate[] {
  if (page.page_kind === 'code' || score <= 0) return []
  const summary = pageSummary(page.compiled_truth, page.frontmatter)
  if (summary === '') return []
  return [summaryCandidate(page, summary, score, 'adjacent', shortened(resolveRelativeDates(summary, writtenOn(page)), page, terms))]
}

/** A long passage of prose cut to its sentences that bear on the question; code is kept whole. */
function shortened(text: string, page: PageRow, terms: readonly string[]): string {
  return page.page_kind === 'code' ? text : (trimToQuestion(text, terms) ?? text)
}

/** A page's summary as one piece of evidence; repeats are found on the summary alone. */
function summaryCandidate(page: PageRow, summary: string, score: number, kind: PackItemKind, text: string): Candidate {
  return {
    key: `summary:${page.id}`,
    own: summary,
    score,
    kind,
    slug: page.slug,
    source_id: page.source_id,
    title: page.title,
    chunk_id: null,
    line: null,
    page: null,
    date: pageDate(page),
    text,
  }
}

/** The date a page says it was written on (front matter `date`), the anchor of its relative dates. */
function writtenOn(page: Pick<PageRow, 'frontmatter'>): string | null {
  const date = page.frontmatter.date
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : null
}

function definitionCandidate(row: DefinitionRow, rank: number): Candidate {
  // A chunk may hold several small definitions: keep the lines of this one.
  const lines = row.chunk_text.split('\n')
  const from = row.chunk_start !== null ? Math.max(0, row.start_line - row.chunk_start) : 0
  const to = row.chunk_start !== null ? row.end_line - row.chunk_start + 1 : lines.length
  const text = lines.slice(from, Math.max(from + 1, to)).join('\n') || row.chunk_text
  return {
    key: `def:${row.chunk_id}:${row.start_line}`,
    score: 1.2 - rank * 0.01,
    kind: 'definition',
    slug: row.slug,
    source_id: row.source_id,
    title: row.title,
    chunk_id: row.chunk_id,
    line: row.start_line,
    page: null,
    date: row.updated_at ? new Date(row.updated_at).toISOString().slice(0, 10) : null,
    text,
  }
}

function summaryCandidates(page: PageRow | undefined, base: number, kind: PackItemKind, terms: readonly string[]): Candidate[] {
  if (!page || page.page_kind === 'code') return []
  const summary = pageSummary(page.compiled_truth, page.frontmatter)
  if (summary === '') return []
  const coverage = termCoverage(terms, `${page.title} ${summary}`)
  // A neighbour earns its place only by bearing on the question.
  if (kind === 'neighbour' && coverage === 0) return []
  const text = page.title && !summary.includes(page.title) ? `${page.title}: ${summary}` : summary
  return [summaryCandidate(page, summary, base + 0.3 * coverage, kind, text)]
}

function timelineCandidates(pages: ReadonlyArray<PageRow | undefined>, terms: readonly string[], past: boolean): Candidate[] {
  const out: Candidate[] = []
  const seen = new Set<number>()
  for (const page of pages) {
    if (!page || seen.has(page.id) || page.timeline === '') continue
    seen.add(page.id)
    for (const entry of timelineEntries(page.timeline)) {
      if (!past && isSupersededFact(entry.text)) continue
      const coverage = termCoverage(terms, `${page.title} ${entry.text}`)
      if (coverage === 0) continue
      out.push({
        key: `timeline:${page.id}:${entry.line}`,
        score: 0.4 + 0.6 * coverage,
        kind: 'timeline',
        slug: page.slug,
        source_id: page.source_id,
        title: page.title,
        chunk_id: null,
        line: entry.line,
        page: null,
        date: entry.date ?? pageDate(page),
        text: entry.text,
      })
    }
  }
  return out.sort((a, b) => b.score - a.score).slice(0, TIMELINE_ENTRIES)
}

const normalized = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim()

/**
 * Best first, without repeats, as many as fit the budget; then the items of one run (the turns of
 * a conversation's session, the chunks of a page) put together in their series' order, where the
 * run's best item stood, and numbered. An item after another of its run is printed without the
 * heading's date, so joining a run costs fewer tokens than standing alone.
 */
function fit(candidates: Candidate[], budget: number, count: (text: string) => number): { items: PackItem[]; tokens: number } {
  const ordered = candidates.map((c, i) => ({ c, i })).sort((a, b) => b.c.score - a.c.score || a.i - b.i)
  const keys = new Set<string>()
  const texts: string[] = []
  const runs = new Map<string, PackItem[]>()
  const runTokens = runCost(count)
  let used = 0
  for (const { c } of ordered) {
    const text = normalized(c.own ?? c.text)
    if (keys.has(c.key) || text === '' || texts.some((t) => t.includes(text) || (c.kind !== 'hit' && text.includes(t)))) continue
    const capped = capToTokenLimit(c.text, Math.floor(budget * ITEM_SHARE))
    const { key: _key, score: _score, own: _own, ...fields } = c
    const item: PackItem = { n: 0, ...fields, text: capped, tokens: 0 }
    const key = runKey(item) ?? c.key
    const run = runs.get(key) ?? []
    const joined = inSeriesOrder([...run, item])
    const cost = runTokens(joined) - runTokens(run)
    if (used + cost > budget) continue
    keys.add(c.key)
    texts.push(text)
    runs.set(key, joined)
    used += cost
  }
  const items = [...runs.values()].flat()
  items.forEach((item, i) => {
    item.n = i + 1
    item.tokens = count(renderItem(item, items[i - 1]))
  })
  return { items, tokens: items.reduce((sum, item) => sum + item.tokens, 0) }
}

/** A run's items in the order of their series (turn 3 before turn 4, line 10 before line 40). */
function inSeriesOrder(run: PackItem[]): PackItem[] {
  const place = (item: PackItem): number => Number(seriesOf(item.slug)?.digits ?? 0)
  return run
    .map((item, i) => ({ item, i }))
    .sort((a, b) => place(a.item) - place(b.item) || (a.item.line ?? 0) - (b.item.line ?? 0) || a.i - b.i)
    .map(({ item }) => item)
}

/**
 * What a run's items cost printed one after the other. An item's cost depends only on how it is
 * printed (with its heading, as a line, as a bare line), so each is counted at most three times;
 * numbers are counted as two digits, as most are.
 */
function runCost(count: (text: string) => number): (run: readonly PackItem[]) => number {
  const costs = new Map<PackItem, Map<ItemForm, number>>()
  const cost = (item: PackItem, previous: PackItem | undefined): number => {
    const known = costs.get(item) ?? new Map<ItemForm, number>()
    costs.set(item, known)
    const form = itemForm(item, previous)
    const got = known.get(form) ?? count(renderItem({ ...item, n: 10 }, previous ? { ...previous, n: 9 } : null))
    known.set(form, got)
    return got
  }
  return (run) => run.reduce((sum, item, i) => sum + cost(item, run[i - 1]), 0)
}
