/**
 * The search hits a context pack is built from. A question about one person of a chat ("What
 * does Melanie do to relax?") is asked twice: as written, and without the names of the speakers
 * it names, whose name otherwise ranks first every line that merely addresses them ("Thanks,
 * Melanie!"), worded as the statement its answer would be ("activities partake in"), which the
 * sentence encoder puts nearer the lines that tell than the lines that ask. Of the second list
 * only the named speakers' own lines are kept: what a person does or likes is told in their own
 * lines, while the other speaker's lines on the same topic are mostly questions and replies about
 * it. The two lists are merged, one hit of the question as written to two of those lines, so the
 * lines about the facet asked reach the pack beside those the question's own words find (whose
 * next turns the pack also reads).
 *
 * A question that names a period ("in January 2022", "on 8 May 2023") also ranks the chunks of
 * the pages written in that period against it (searchPeriod), which the brain-wide search may
 * rank far down when they share no word with the question; those are merged after each hit. A
 * month or day named without its year ("in May") is the most recent one at or before the latest
 * dated page of the source asked, and a period of days is read a week past its end.
 */
import { MAX_LIMIT, latestDatedDay, query, searchPeriod, type PeriodBounds, type SearchDeps, type SearchResult } from '../search/index.js'
import { chunksById, type ChunkRow } from './gather.js'
import { namesUndatedPeriod, periodIn, withoutPeriod } from './period.js'
import { chatSpeaker, speakersAsked } from './speakers.js'
import { asStatement, contentTerms } from './text.js'

/** The second search reads this many times deeper, since only the named speakers' lines of it are kept. */
const SPEAKER_DEPTH = 2
/** The named speakers' lines merged after each hit of the question as written. */
const SPEAKER_SHARE = 2
/** The period's chunks merged after each hit of the searches above. */
const PERIOD_SHARE = 2
/**
 * A period of days ("between August 11 and August 15") is read this many days past its end:
 * people tell of an event in the days after it ("we got back from the lake on Sunday"), and a
 * week holds the next telling of most. A month or a year holds its own tellings, and the week
 * after it mostly tells of the next month's.
 */
const TOLD_AFTER_DAYS = 7
/** A period shorter than this many days is one of days. */
const MONTH_DAYS = 28

interface Hits {
  hits: SearchResult[]
  chunks: ChunkRow[]
  /** Set when retrieval ran on keywords alone, and why. */
  notice: string | null
  /** The chat speakers the question names (none when it names none, or the hits are no chat). */
  named: ReadonlySet<string>
}

export async function gatherHits(search: SearchDeps, question: string, limit: number, source: string | null): Promise<Hits> {
  const found = await searchHits(search, question, limit, source)
  const named = await askedPeriod(search, question, source)
  if (named === null) return found
  const period = daysBetween(named.from, named.to) < MONTH_DAYS ? { from: named.from, to: addDays(named.to, TOLD_AFTER_DAYS) } : named
  // Ranked without the dates (every page there has them) and, as the second search above, without
  // the speakers' names, of whose own lines only are kept.
  const bare = withoutPeriod(question)
  const facet = withoutNames(bare, found.named)
  const depth = found.named.size === 0 ? limit : Math.min(MAX_LIMIT, limit * SPEAKER_DEPTH)
  const dated = await searchPeriod(search, contentTerms(facet).length > 0 ? facet : bare || question, period, { limit: depth, ...(source !== null ? { sourceId: source } : {}) })
  if (dated.length === 0) return found
  const have = new Set(found.chunks.map((c) => c.id))
  const more = await chunksById(
    search.db,
    dated.map((h) => h.chunk_id).filter((id) => !have.has(id)),
    source,
  )
  const textOf = new Map([...found.chunks, ...more].map((c) => [c.id, c.chunk_text]))
  const own = found.named.size === 0 ? dated : dated.filter((h) => found.named.has(chatSpeaker(textOf.get(h.chunk_id) ?? '')?.name ?? ''))
  const hits = interleave(found.hits, own, PERIOD_SHARE, limit)
  const kept = new Set(hits.map((h) => h.chunk_id))
  return { hits, chunks: [...found.chunks, ...more].filter((c) => kept.has(c.id)), notice: found.notice, named: found.named }
}

/** The period the question names, a month or day without its year counted back from the source's latest dated page. */
async function askedPeriod(search: SearchDeps, question: string, source: string | null): Promise<PeriodBounds | null> {
  if (!namesUndatedPeriod(question)) return periodIn(question)
  const latest = await latestDatedDay(search, source)
  return latest === null ? null : periodIn(question, latest)
}

const daysBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 86_400_000

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** The hits of the question as written and, when it names chat speakers, of its facet. */
async function searchHits(search: SearchDeps, question: string, limit: number, source: string | null): Promise<Hits> {
  const ask = async (text: string, depth = limit): Promise<{ hits: SearchResult[]; notice: string | null }> => {
    const response = await query(search, asWords(text), { limit: depth, ...(source !== null ? { sourceId: source } : {}) })
    return { hits: response.results.filter((r) => source === null || r.source_id === source), notice: response.notice }
  }
  const first = await ask(question)
  const chunks = await chunksById(
    search.db,
    first.hits.map((h) => h.chunk_id),
    source,
  )
  const named = speakersAsked(question, new Set(chunks.flatMap((c) => chatSpeaker(c.chunk_text)?.name ?? [])))
  const facet = withoutNames(question, named)
  if (named.size === 0 || contentTerms(facet).length === 0) return { hits: first.hits, chunks, notice: first.notice, named }
  const second = (await ask(asStatement(facet), Math.min(MAX_LIMIT, limit * SPEAKER_DEPTH))).hits
  const have = new Set(chunks.map((c) => c.id))
  const more = await chunksById(
    search.db,
    second.map((h) => h.chunk_id).filter((id) => !have.has(id)),
    source,
  )
  // Only the named speakers' own lines: the facet asked is theirs to tell.
  const textOf = new Map([...chunks, ...more].map((c) => [c.id, c.chunk_text]))
  const own = second.filter((h) => named.has(chatSpeaker(textOf.get(h.chunk_id) ?? '')?.name ?? ''))
  const hits = interleave(first.hits, own, SPEAKER_SHARE, limit)
  const kept = new Set(hits.map((h) => h.chunk_id))
  return { hits, chunks: [...chunks, ...more.filter((c) => kept.has(c.id))], notice: first.notice, named }
}

/** Spelled as search syntax, a question's quotes and dashes would filter; it is asked as plain words. */
function asWords(question: string): string {
  return question.replace(/["“”]/g, ' ').replace(/(^|\s)-+(?=\S)/g, '$1')
}

/** The question without the names (and their possessive `'s`) given. */
export function withoutNames(question: string, names: ReadonlySet<string>): string {
  let out = question
  for (const name of names) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?:['’]s)?(?![\\p{L}\\p{N}])`, 'gu'), ' ')
  return out.replace(/\s+/g, ' ').trim()
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Two ranked lists merged, one of `a` then `share` of `b` in turn, without repeats, at most `max`. */
export function interleave<T extends { chunk_id: number }>(a: readonly T[], b: readonly T[], share: number, max: number): T[] {
  const out: T[] = []
  const seen = new Set<number>()
  for (let i = 0; i < Math.max(a.length, Math.ceil(b.length / share)); i++) {
    for (const hit of [a[i], ...b.slice(i * share, (i + 1) * share)]) {
      if (hit === undefined || seen.has(hit.chunk_id)) continue
      if (out.length === max) return out
      seen.add(hit.chunk_id)
      out.push(hit)
    }
  }
  return out
}
