import { createRequire } from 'node:module'
import { EMBEDDING_INPUT_TOKEN_CAP } from '../constants.js'
import { bytePairEncoder, type RankFile } from './byte-pair.js'

/** The two operations capping needs; cl100k_base in production, anything in tests. */
export interface TokenEncoder {
  encode(text: string): number[]
  decode(tokens: number[]): string
}

type EncoderLoader = () => TokenEncoder

interface CappedText {
  text: string
  tokens: number
}

/**
 * Loads cl100k_base synchronously through the CommonJS build of its ranks, so that countTokens
 * can stay synchronous. Reading the rank table costs about 60 ms once per process, which is why
 * nothing calls this before the first count.
 */
export function loadCl100kEncoder(): TokenEncoder {
  const require = createRequire(import.meta.url)
  const loaded = require('js-tiktoken/ranks/cl100k_base') as (RankFile & { pat_str: string }) | { default: RankFile & { pat_str: string } }
  const ranks = 'default' in loaded ? loaded.default : loaded
  const encoder = bytePairEncoder(ranks)
  // Special-token text such as "<|endoftext|>" in a note is ordinary text to the embeddings
  // API, and so it is to this encoder, which knows no special tokens.
  return {
    encode: memoizedPieces(new RegExp(ranks.pat_str, 'gu'), (piece) => encoder.encodePiece(piece)),
    decode: (tokens) => encoder.decode(tokens),
  }
}

/** Distinct pieces remembered before the memo starts over, so it stays a few MB at most. */
const PIECE_MEMO_LIMIT = 50_000

/**
 * An encoder that splits text into the tokenizer's own pieces (its pre-tokenizing pattern) and
 * byte-pair encodes each distinct piece once per process. The library encodes every piece anew on
 * every call; text is counted, capped and counted again (a context pack renders each item after
 * capping it), and the same words recur across notes. The tokens are the same: byte-pair merges
 * never cross a piece boundary, and a piece encoded alone is split into itself again.
 */
export function memoizedPieces(pattern: RegExp, encodePiece: (piece: string) => number[]): (text: string) => number[] {
  const memo = new Map<string, number[]>()
  return (text) => {
    const out: number[] = []
    for (const match of text.matchAll(pattern)) {
      const piece = match[0]
      let tokens = memo.get(piece)
      if (tokens === undefined) {
        tokens = encodePiece(piece)
        if (memo.size >= PIECE_MEMO_LIMIT) memo.clear()
        memo.set(piece, tokens)
      }
      for (const token of tokens) out.push(token)
    }
    return out
  }
}

/** Token counting with one lazily loaded encoder and the spec's length/4 fallback. */
export class TokenCounter {
  private encoder: TokenEncoder | undefined
  private failed = false

  constructor(private readonly load: EncoderLoader) {}

  /** True when counts come from the length/4 estimate because the encoder could not load. */
  get usingFallback(): boolean {
    return this.resolve() === undefined
  }

  count(text: string): number {
    const encoder = this.resolve()
    return encoder === undefined ? Math.ceil(text.length / 4) : encoder.encode(text).length
  }

  cap(text: string, maxTokens: number = EMBEDDING_INPUT_TOKEN_CAP): string {
    // Text that cannot be over the limit is returned without counting it: the caller wants no count.
    if (this.resolve() !== undefined && Buffer.byteLength(text, 'utf8') <= normalizeLimit(maxTokens)) return text
    return this.capWithCount(text, maxTokens).text
  }

  /** The longest prefix of `text` within `maxTokens`, with its token count. */
  capWithCount(text: string, maxTokens: number = EMBEDDING_INPUT_TOKEN_CAP): CappedText {
    const limit = normalizeLimit(maxTokens)
    const encoder = this.resolve()
    if (encoder === undefined) return capByLength(text, limit)
    // Every cl100k token covers at least one UTF-8 byte, so short texts need no encoding at all.
    if (Buffer.byteLength(text, 'utf8') <= limit) return { text, tokens: this.count(text) }
    const tokens = encoder.encode(text)
    if (tokens.length <= limit) return { text, tokens: tokens.length }
    return capByTokens(encoder, text, tokens, limit)
  }

  private resolve(): TokenEncoder | undefined {
    if (this.encoder !== undefined || this.failed) return this.encoder
    try {
      this.encoder = this.load()
    } catch {
      // The spec's fallback: estimates keep working when the tokenizer cannot load.
      this.failed = true
    }
    return this.encoder
  }
}

function normalizeLimit(maxTokens: number): number {
  if (!Number.isFinite(maxTokens)) return maxTokens > 0 ? Number.MAX_SAFE_INTEGER : 0
  return Math.max(0, Math.floor(maxTokens))
}

function capByTokens(encoder: TokenEncoder, text: string, tokens: number[], limit: number): CappedText {
  let keep = limit
  while (keep > 0) {
    const candidate = encoder.decode(tokens.slice(0, keep))
    // A cut inside a multi-byte character decodes to U+FFFD, which is not a prefix of the
    // original; re-encoding a prefix can also merge differently, so check the count again.
    if (text.startsWith(candidate)) {
      const count = encoder.encode(candidate).length
      if (count <= limit) return { text: candidate, tokens: count }
    }
    keep -= 1
  }
  return { text: '', tokens: 0 }
}

function capByLength(text: string, limit: number): CappedText {
  const maxChars = limit * 4
  if (text.length <= maxChars) return { text, tokens: Math.ceil(text.length / 4) }
  let end = maxChars
  // Never split a surrogate pair: half an emoji is not valid text for any API.
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  const capped = text.slice(0, end)
  return { text: capped, tokens: Math.ceil(capped.length / 4) }
}
