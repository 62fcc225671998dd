import { citationOf } from './citations.js'
import { monthNamed } from './period.js'
import { chatSpeaker } from './speakers.js'
import { CUT_MARK } from './trim.js'
import { contentTerms, stem, wholeSentences } from './text.js'
import type { AskResult, ContextPack } from './types.js'

const MAX_SENTENCES = 5

interface Scored {
  n: number
  sentence: string
  score: number
  order: number
}

/**
 * The answer with no model: the sentences of the pack that share the most (and rarest) words
 * with the question, each cited; the question's words found nowhere in the pack are its gaps.
 */
export function extractiveAnswer(pack: ContextPack): AskResult {
  const terms = contentTerms(pack.question)
  const perItem = pack.items.map((item) => itemSentences(item.text).map((s) => ({ n: item.n, sentence: s, words: new Set(contentTerms(s)) })))
  const all = perItem.flat()
  // A word in every sentence tells them apart no better than none.
  const weight = new Map(terms.map((t) => [t, Math.log(1 + (all.length + 1) / (1 + all.filter((s) => s.words.has(t)).length))]))
  const defines = definitionOf(pack.question)
  const scored: Scored[] = all.map((s, order) => ({
    n: s.n,
    sentence: s.sentence,
    order,
    score: (terms.reduce((sum, t) => sum + (s.words.has(t) ? weight.get(t)! : 0), 0) / Math.sqrt(Math.max(4, s.words.size) / 4)) * standing(s.sentence, defines),
  }))
  const chosen = scored
    // A sentence that leads into a list ("To embed a note:") says nothing on its own.
    .filter((s) => s.score > 0 && !s.sentence.endsWith(':'))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((s, i, list) => list.findIndex((o) => o.sentence.includes(s.sentence) || s.sentence.includes(o.sentence)) === i)
    .slice(0, MAX_SENTENCES)
  const packWords = new Set(all.flatMap((s) => [...s.words]))
  // A gap names the question's word as it was written, not the stem it was matched by.
  const written = new Map<string, string>()
  for (const word of pack.question.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const folded = stem(word.toLowerCase())
    if (!written.has(folded)) written.set(folded, word)
  }
  const dates = pack.items.map((i) => i.date).filter((d): d is string => d !== null)
  const gaps = terms.filter((t) => !packWords.has(t) && !pack.items.some((i) => i.slug.toLowerCase().includes(stem(t))) && !namesADateHeld(written.get(t) ?? t, dates))
  const answer = chosen.map((s) => `${s.sentence.replace(/\s*\[\d+\]\s*$/, '')} [${s.n}]`).join('\n')
  const cited = [...new Set(chosen.map((s) => s.n))].sort((a, b) => a - b)
  const byN = new Map(pack.items.map((i) => [i.n, i]))
  return {
    answer,
    citations: cited.map((n) => citationOf(byN.get(n)!)),
    flags: [],
    gaps: chosen.length === 0 ? [pack.question] : gaps.map((t) => `nothing in the brain mentions "${written.get(t) ?? t}"`),
    model: null,
    mode: 'extractive',
    context_tokens: pack.tokens,
    notice: pack.notice,
  }
}

/** A cut mark standing alone between the sentences a pack kept. */
const CUT = new RegExp(`(^|\\s)${CUT_MARK}(?=\\s|$)`, 'g')

/**
 * An item's sentences: where the pack cut the passage, the cut is a break between sentences, and
 * each sentence of a chat line says who said it (`Melanie: …`).
 */
function itemSentences(text: string): string[] {
  const speaker = chatSpeaker(text)
  const body = (speaker ? text.slice(speaker.label.length) : text).replace(CUT, '\n\n')
  return wholeSentences(body, { whole: speaker !== null }).map((sentence) => (speaker ? `${speaker.name}: ${sentence}` : sentence))
}

/** Whether a word of the question is a month or a year that an item's date falls in: "July" is held by a turn of 2023-07-15. */
function namesADateHeld(word: string, dates: readonly string[]): boolean {
  if (/^(?:19|20)\d{2}$/.test(word)) return dates.some((d) => d.startsWith(word))
  const month = monthNamed(word)
  return month !== null && dates.some((d) => Number(d.slice(5, 7)) === month)
}

/** "For more information, refer to …", "See also …": a sentence that sends the reader elsewhere. */
const POINTER = /^(?:for more (?:information|details)|for details|see also|see |refer to|learn more|read more)/i
/** What a pointer's score is multiplied by: it shares the question's words and answers nothing. */
const POINTER_SHARE = 0.5
/** What a sentence defining the thing a "what is …" question asks about is multiplied by. */
const DEFINITION_BOOST = 2

/**
 * The subject of a question asking what or who something is ("What is a canvas?" → `canvas`), as a
 * pattern matching a sentence that defines it ("Canvas is a core plugin …"); null for other questions.
 */
function definitionOf(question: string): RegExp | null {
  const asked = /^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$/i.exec(question)
  const subject = asked?.[1]?.trim()
  if (subject === undefined || subject === '' || subject.split(/\s+/).length > 4) return null
  const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  return new RegExp(`^(?:an?\\s+|the\\s+)?${escaped}(?:e?s)?\\s+(?:is|are|was|were|means|refers to)\\b`, 'i')
}

/** How a sentence stands apart from its shared words: a pointer elsewhere below, the definition asked for above. */
function standing(sentence: string, defines: RegExp | null): number {
  if (defines?.test(sentence)) return DEFINITION_BOOST
  return POINTER.test(sentence) ? POINTER_SHARE : 1
}
