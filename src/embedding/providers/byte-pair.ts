/**
 * Byte-pair encoding over a rank table in the lite format of the cl100k ranks (lines of
 * `<prefix> <first rank> <base64 token> <base64 token> …`). The table is kept as it is written,
 * base64 text to rank: reading it that way costs a tenth of decoding every token to bytes up
 * front, which a short command that counts a few lines of text never earns back.
 */

/** The parts of a rank file this encoder reads. */
export interface RankFile {
  bpe_ranks: string
}

interface PieceEncoder {
  /** The tokens of one pre-tokenized piece of text. */
  encodePiece(piece: string): number[]
  decode(tokens: readonly number[]): string
}

function readRanks(file: RankFile): Map<string, number> {
  const ranks = new Map<string, number>()
  for (const line of file.bpe_ranks.split('\n')) {
    if (line === '') continue
    const words = line.split(' ')
    const first = Number.parseInt(words[1]!, 10)
    for (let i = 2; i < words.length; i++) ranks.set(words[i]!, first + i - 2)
  }
  return ranks
}

/**
 * Merges adjacent parts of `bytes`, the pair of lowest rank first (the leftmost among equals),
 * until no adjacent pair is a token; returns the tokens of the parts left.
 */
function mergePairs(bytes: Buffer, rankOf: (start: number, end: number) => number | undefined): number[] {
  // bounds[i] is where part i starts, the last entry the end of the piece; pairs[i] is the rank
  // of parts i and i + 1 together. A merge changes only the pairs beside it, so only those are
  // looked up again: a long run of one character stays linear per round.
  const bounds = Array.from({ length: bytes.length + 1 }, (_, i) => i)
  const pairRank = (i: number): number => rankOf(bounds[i]!, bounds[i + 2]!) ?? Number.POSITIVE_INFINITY
  const pairs = Array.from({ length: bytes.length - 1 }, (_, i) => pairRank(i))
  while (pairs.length > 0) {
    let best = 0
    for (let i = 1; i < pairs.length; i++) if (pairs[i]! < pairs[best]!) best = i
    if (pairs[best] === Number.POSITIVE_INFINITY) break
    bounds.splice(best + 1, 1)
    pairs.splice(best, 1)
    if (best < pairs.length) pairs[best] = pairRank(best)
    if (best > 0) pairs[best - 1] = pairRank(best - 1)
  }
  const tokens: number[] = []
  for (let i = 0; i + 1 < bounds.length; i++) {
    const rank = rankOf(bounds[i]!, bounds[i + 1]!)
    if (rank !== undefined) tokens.push(rank)
  }
  return tokens
}

const utf8 = new TextDecoder('utf-8')

export function bytePairEncoder(file: RankFile): PieceEncoder {
  const ranks = readRanks(file)
  let byRank: string[] | undefined
  return {
    encodePiece(piece) {
      const bytes = Buffer.from(piece, 'utf8')
      const whole = ranks.get(bytes.toString('base64'))
      if (whole !== undefined) return [whole]
      return mergePairs(bytes, (start, end) => ranks.get(bytes.toString('base64', start, end)))
    },
    decode(tokens) {
      if (byRank === undefined) {
        byRank = []
        for (const [text, rank] of ranks) byRank[rank] = text
      }
      const table = byRank
      return utf8.decode(Buffer.concat(tokens.map((t) => Buffer.from(table[t] ?? '', 'base64'))))
    },
  }
}
