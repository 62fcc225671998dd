import { sentences } from './text.js'
import type { AnswerFlag, Citation, PackItem } from './types.js'

/** The heading the prompt asks a model to put before what the pack does not hold. */
export const GAPS_HEADING = 'Not in the brain:'

const CITATION = /\[(\d+(?:\s*[,;–-]\s*\d+)*)\]/g

/** The numbers a piece of text cites: `[2]`, `[2, 5]`, `[2-4]`. */
export function citedNumbers(text: string): number[] {
  const found: number[] = []
  for (const match of text.matchAll(CITATION)) {
    for (const part of match[1]!.split(/\s*[,;]\s*/)) {
      const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part)
      if (range) {
        const [from, to] = [Number(range[1]), Number(range[2])]
        for (let n = from; n <= to && n - from < 50; n++) found.push(n)
      } else found.push(Number(part))
    }
  }
  return found
}

/** Splits a model's text into the answer and the "not in the brain" list. */
export function splitGaps(text: string): { answer: string; gaps: string[] } {
  const at = text.search(/^[ \t]*(?:#+[ \t]*|\*\*)?not in the brain\b/im)
  if (at < 0) return { answer: text.trim(), gaps: [] }
  const [heading = '', ...rest] = text.slice(at).split('\n')
  const inline = heading.replace(/^[ \t]*(?:#+[ \t]*|\*\*)?not in the brain\**:?\**/i, '').trim()
  const gaps = [inline, ...rest.map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s*/, '').trim())].filter((l) => l !== '' && !/^(?:none|nothing|n\/a)\.?$/i.test(l))
  return { answer: text.slice(0, at).trim(), gaps }
}

/**
 * Checks an answer against its pack after generation: every cited number must be an item of the
 * pack, and every sentence must cite one. What fails is flagged, never dropped or passed.
 */
export function checkCitations(answer: string, items: readonly PackItem[]): { citations: Citation[]; flags: AnswerFlag[] } {
  const byN = new Map(items.map((i) => [i.n, i]))
  const flags: AnswerFlag[] = []
  const cited: number[] = []
  const reported = new Set<number>()
  // Every sentence counts here, however short: a short claim needs its citation too.
  for (const sentence of sentences(answer, 2)) {
    const numbers = citedNumbers(sentence)
    if (numbers.length === 0) {
      flags.push({ kind: 'uncited_sentence', sentence })
      continue
    }
    for (const n of numbers) {
      if (byN.has(n)) cited.push(n)
      else if (!reported.has(n)) {
        reported.add(n)
        flags.push({ kind: 'citation_out_of_range', n, sentence })
      }
    }
  }
  if (answer.trim() !== '' && cited.length === 0 && !flags.some((f) => f.kind === 'citation_out_of_range')) flags.push({ kind: 'no_citations', sentence: '' })
  const citations = [...new Set(cited)].sort((a, b) => a - b).map((n) => citationOf(byN.get(n)!))
  return { citations, flags }
}

export function citationOf(item: PackItem): Citation {
  const flat = item.text.replace(/\s+/g, ' ').trim()
  return { n: item.n, slug: item.slug, chunk_id: item.chunk_id, excerpt: flat.length > 240 ? `${flat.slice(0, 240).replace(/\s+\S*$/, '')} …` : flat }
}
