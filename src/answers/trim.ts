/**
 * A long passage cut to the sentences that bear on a question, so a pack holds more passages in
 * the same tokens. Pure functions.
 */
import { chatSpeaker } from './speakers.js'
import { contentTerms } from './text.js'

/** A passage of at most this many characters (about 15 tokens) is kept whole: cutting it saves too little. */
const SHORT_PASSAGE = 60
/**
 * A passage over this many characters (about 40 tokens) none of whose sentences shares a word with
 * the question is cut to its opening (a turn that answers a question asked before it). A shorter
 * one is then kept whole: its opening alone ("Hey Caroline!") would hold nothing of what it says.
 */
const LONG_PASSAGE = 160
/** What stands for the sentences a cut passage leaves out. */
export const CUT_MARK = '…'

/** Pieces of one paragraph of prose, each a sentence with the space after it; joined they give the text back. */
function pieces(text: string): string[] {
  return text.split(/(?<=[.!?…])(?=\s+[\p{Lu}\p{N}"'“(])/u)
}

/**
 * A passage of one paragraph, longer than SHORT_PASSAGE, cut to its sentences that share a word
 * with the question, each run of sentences left out marked `…`; a passage longer than LONG_PASSAGE
 * keeps its opening sentence when none shares a word. A chat line keeps only the one sentence that
 * shares the most: one speaker's turn is a single remark, whose other sentences sharing a word are
 * mostly the greeting that names the person asked about ("Hey Dave!") or a question back, and the
 * room they take holds another turn (measured on LoCoMo). Null when it stays whole: short, of
 * several lines (a list, a table, code), or with nothing worth cutting.
 */
export function trimToQuestion(text: string, terms: readonly string[]): string | null {
  if (text.length <= SHORT_PASSAGE || text.includes('\n') || terms.length === 0) return null
  // A chat line's speaker is kept before whatever is cut, so the passage still says who spoke.
  const label = chatSpeaker(text)?.label ?? ''
  const parts = pieces(text.slice(label.length))
  if (parts.length < 2) return null
  const wanted = new Set(terms)
  const words = parts.map((part) => contentTerms(part))
  let keep = words.map((own) => own.some((t) => wanted.has(t)))
  if (!keep.some(Boolean)) {
    if (text.length <= LONG_PASSAGE) return null
    keep = parts.map((_, i) => i === 0)
  }
  if (label !== '') {
    const best = mostShared(words, keep, wanted)
    keep = parts.map((_, i) => i === best)
  }
  if (keep.every(Boolean)) return null
  const segments: string[] = []
  keep.forEach((kept, i) => {
    if (kept) segments.push(parts[i]!.trim())
    else if (i === 0 || keep[i - 1]) segments.push(CUT_MARK)
  })
  const out = `${label}${segments.join(' ')}`
  return out.length < text.length ? out : null
}

/**
 * Of the kept sentences (each given as its content words), the index of the one sharing the most
 * words with the question; on a tie the one with more content words, which tells more than a
 * greeting naming the same person; then the first.
 */
function mostShared(words: readonly (readonly string[])[], keep: readonly boolean[], wanted: ReadonlySet<string>): number {
  let best = -1
  let bestShared = -1
  let bestWords = -1
  words.forEach((own, i) => {
    if (!keep[i]) return
    const shared = own.filter((t) => wanted.has(t)).length
    if (shared > bestShared || (shared === bestShared && own.length > bestWords)) {
      best = i
      bestShared = shared
      bestWords = own.length
    }
  })
  return best
}
