/**
 * The sentencepiece-style segmentation USE Lite was trained with, producing exactly the ids of
 * @energetic-ai/embeddings' tokenizer (tests compare the two on a corpus) in linear time: that
 * tokenizer copies the rest of the input at every position, so its cost grows with the square of
 * the input length and, once inference is native, dominates a long chunk's cost.
 *
 * The segmentation is a Viterbi search: every vocabulary piece starting at a position is a
 * candidate, a character no piece covers is the unknown id 0 with score 0, and the highest total
 * score wins. Ties and the reconstruction follow the reference tokenizer's rules, including its
 * quirks, so that ids (and therefore vectors) stay identical.
 */

const WORD_SEPARATOR = '\u2581'
/** Ids 0..5 are reserved (unknown, start, end, extra tokens) and never matched as text. */
const RESERVED_IDS = 6
const UNKNOWN_ID = 0

interface TrieNode {
  children: Map<number, TrieNode>
  /** Set when a vocabulary piece ends here. */
  piece?: { id: number; score: number }
}

export class UseLiteTokenizer {
  private readonly root: TrieNode = { children: new Map() }
  /** UTF-16 length of each vocabulary piece: the reference steps back by it when reconstructing. */
  private readonly pieceLengths: Int32Array

  constructor(vocabulary: ReadonlyArray<readonly [string, number]>) {
    this.pieceLengths = Int32Array.from(vocabulary, ([piece]) => piece.length)
    for (let id = RESERVED_IDS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!
      let node = this.root
      for (const symbol of piece) {
        const codePoint = symbol.codePointAt(0)!
        let next = node.children.get(codePoint)
        if (next === undefined) {
          next = { children: new Map() }
          node.children.set(codePoint, next)
        }
        node = next
      }
      // A later duplicate of a piece replaces the earlier one, as in the reference.
      if (node !== this.root) node.piece = { id, score }
    }
  }

  encode(text: string): number[] {
    const symbols = toCodePoints(prepare(text))
    const n = symbols.length
    // Candidates grouped by end position; pushing in order of start keeps each group sorted by start.
    const endings: Array<Array<{ start: number; length: number; id: number; score: number }>> = Array.from({ length: n + 1 }, () => [])
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start]!)
      let matched = false
      for (let length = 1; node !== undefined; length++) {
        if (node.piece !== undefined) {
          endings[start + length]!.push({ start, length, id: node.piece.id, score: node.piece.score })
          matched = true
        }
        node = start + length < n ? node.children.get(symbols[start + length]!) : undefined
      }
      if (!matched) endings[start + 1]!.push({ start, length: 1, id: UNKNOWN_ID, score: 0 })
    }
    const best = new Float64Array(n + 1)
    const words = new Int32Array(n + 1)
    for (let end = 0; end <= n; end++) {
      for (const candidate of endings[end]!) {
        const score = candidate.score + best[end - candidate.length]!
        // A best of exactly 0 counts as "nothing yet", and a tie goes to the later candidate.
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score
          words[end] = candidate.id
        }
      }
    }
    const reversed: number[] = []
    for (let at = n; at > 0; at -= this.pieceLengths[words[at]!]!) reversed.push(words[at]!)
    // Runs of unknown ids collapse into one.
    const ids: number[] = []
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i]!
      if (id === UNKNOWN_ID && i < reversed.length - 1 && reversed[i + 1] === UNKNOWN_ID) continue
      ids.push(id)
    }
    return ids
  }
}

function prepare(text: string): string {
  const normalized = text.normalize('NFKC')
  return normalized.length > 0 ? WORD_SEPARATOR + normalized.replaceAll(' ', WORD_SEPARATOR) : normalized
}

function toCodePoints(text: string): number[] {
  const out: number[] = []
  for (const symbol of text) out.push(symbol.codePointAt(0)!)
  return out
}
