/**
 * Tiny but real models for tests: an ONNX graph with seeded random weights (written with the
 * project's own ONNX protobuf writer) and a real WordPiece tokenizer.json, laid out as a
 * sentence-transformers folder. The tests compute what the graph must return by hand.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serializeOnnxModel, type OnnxNode, type OnnxTensor } from '../../src/embedding/local/onnx-proto.js'

export const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const
export const WORDS = [
  'query',
  'passage',
  ':',
  'zebra',
  'giraffe',
  'lion',
  'savanna',
  'river',
  'mountain',
  'postgres',
  'vector',
  'search',
  'notes',
  'garden',
  'tomato',
  'basil',
  'compost',
  'soil',
  'water',
  'sun',
  'the',
  'a',
  'and',
  'of',
  'in',
  'is',
  'grows',
  'runs',
  'index',
  'database',
  'animal',
  'plant',
]
export const VOCAB = [...SPECIAL, ...WORDS]

/** The id of a vocabulary word. */
export function tokenId(word: string): number {
  const id = VOCAB.indexOf(word)
  if (id < 0) throw new Error(`not in the tiny vocabulary: ${word}`)
  return id
}

/** Ids the tokenizer gives a lower-case text of vocabulary words: [CLS] words [SEP]. */
export function idsOf(text: string): number[] {
  return [tokenId('[CLS]'), ...text.split(/\s+/).filter(Boolean).map(tokenId), tokenId('[SEP]')]
}

/** A seeded generator, so a test's weights are the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  }
}

export function tokenizerJson(): Record<string, unknown> {
  const token = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })
  const special = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } })
  const sequence = (id: 'A' | 'B', typeId: number) => ({ Sequence: { id, type_id: typeId } })
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => token(content, id)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
      pair: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0), sequence('B', 1), special('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(VOCAB.map((w, i) => [w, i])) },
  }
}

const tokenizerConfig = { model_max_length: 64, do_lower_case: true, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]' }

function floats(name: string, dims: number[], values: number[]): OnnxTensor {
  return { name, dims, dataType: 'float', data: Float32Array.from(values) }
}

function ints(name: string, values: number[]): OnnxTensor {
  return { name, dims: [values.length], dataType: 'int64', data: BigInt64Array.from(values.map(BigInt)) }
}

export interface TinyEmbedder {
  dir: string
  /** embeddings[tokenId] is the token's row; the graph returns tanh(row) × mask per token. */
  embeddings: number[][]
  dimensions: number
}

/**
 * An embedder: last_hidden_state = tanh(E[input_ids]) × attention_mask, [batch, tokens, dims].
 * `pooling` and `normalize` go into 1_Pooling/config.json and modules.json as the layout says.
 */
export async function writeTinyEmbedder(
  dir: string,
  options: { dimensions?: number; seed?: number; pooling?: 'mean' | 'cls'; normalize?: boolean; prompts?: { query: string; passage: string } } = {},
): Promise<TinyEmbedder> {
  const dimensions = options.dimensions ?? 8
  const random = seeded(options.seed ?? 7)
  const embeddings = VOCAB.map(() => Array.from({ length: dimensions }, () => random() * 2))
  const nodes: OnnxNode[] = [
    { opType: 'Gather', inputs: ['E', 'input_ids'], outputs: ['rows'], attributes: { axis: 0 } },
    { opType: 'Tanh', inputs: ['rows'], outputs: ['hidden'] },
    { opType: 'Cast', inputs: ['attention_mask'], outputs: ['mask_f'], attributes: { to: 1 } },
    { opType: 'Unsqueeze', inputs: ['mask_f', 'axis2'], outputs: ['mask3'] },
    { opType: 'Mul', inputs: ['hidden', 'mask3'], outputs: ['last_hidden_state'] },
  ]
  const model = serializeOnnxModel({
    graphName: 'tiny-embedder',
    nodes,
    initializers: [floats('E', [VOCAB.length, dimensions], embeddings.flat()), ints('axis2', [2])],
    inputs: [
      { name: 'input_ids', dataType: 'int64', shape: ['batch', 'tokens'] },
      { name: 'attention_mask', dataType: 'int64', shape: ['batch', 'tokens'] },
    ],
    outputs: [{ name: 'last_hidden_state', dataType: 'float', shape: ['batch', 'tokens', dimensions] }],
    opsetVersion: 13,
  })
  await mkdir(join(dir, 'onnx'), { recursive: true })
  await mkdir(join(dir, '1_Pooling'), { recursive: true })
  await writeFile(join(dir, 'onnx', 'model.onnx'), model)
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()))
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig))
  await writeFile(
    join(dir, '1_Pooling', 'config.json'),
    JSON.stringify({ word_embedding_dimension: dimensions, pooling_mode_cls_token: options.pooling === 'cls', pooling_mode_mean_tokens: options.pooling !== 'cls' }),
  )
  const modules = [
    { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
    { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
  ]
  if (options.normalize !== false) modules.push({ idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' })
  await writeFile(join(dir, 'modules.json'), JSON.stringify(modules))
  if (options.prompts) await writeFile(join(dir, 'config_sentence_transformers.json'), JSON.stringify({ prompts: options.prompts, default_prompt_name: null }))
  return { dir, embeddings, dimensions }
}

/** What the tiny embedder returns for a text of vocabulary words (mean or CLS pooling, normalised or not). */
export function expectedVector(model: TinyEmbedder, text: string, options: { pooling?: 'mean' | 'cls'; normalize?: boolean } = {}): number[] {
  const rows = idsOf(text).map((id) => model.embeddings[id]!.map(Math.tanh))
  const pooled = options.pooling === 'cls' ? rows[0]! : rows[0]!.map((_, d) => rows.reduce((sum, row) => sum + row[d]!, 0) / rows.length)
  if (options.normalize === false) return pooled
  const norm = Math.sqrt(pooled.reduce((s, v) => s + v * v, 0))
  return pooled.map((v) => v / norm)
}

export interface TinyReranker {
  dir: string
  /** The relevance the graph gives (query, passage). */
  score(query: string, passage: string): number
}

/**
 * A cross-encoder: logits = mean over the unpadded tokens of tanh(E[ids] + T[token_type_ids]) · W, [batch, 1].
 * E's first column is 3 for `favourite` and 0 elsewhere, and W weighs that column most, so
 * passages denser in the favourite word score higher. `slowness` repeats a square MatMul on the
 * hidden states that many times, to make the model slow enough to overrun a small budget.
 */
export async function writeTinyReranker(dir: string, options: { favourite?: string; seed?: number; slowness?: number } = {}): Promise<TinyReranker> {
  const dimensions = 4
  const random = seeded(options.seed ?? 11)
  const favourite = tokenId(options.favourite ?? 'zebra')
  const E = VOCAB.map((_, id) => [id === favourite ? 3 : 0, random(), random(), random()])
  const T = [
    [0, random(), random(), random()],
    [0, random(), random(), random()],
  ]
  const W = [4, random() * 0.1, random() * 0.1, random() * 0.1]
  const nodes: OnnxNode[] = [
    { opType: 'Gather', inputs: ['E', 'input_ids'], outputs: ['rows'], attributes: { axis: 0 } },
    { opType: 'Gather', inputs: ['T', 'token_type_ids'], outputs: ['types'], attributes: { axis: 0 } },
    { opType: 'Add', inputs: ['rows', 'types'], outputs: ['sum'] },
    { opType: 'Tanh', inputs: ['sum'], outputs: ['hidden'] },
  ]
  const initializers: OnnxTensor[] = [floats('E', [VOCAB.length, dimensions], E.flat()), floats('T', [2, dimensions], T.flat()), floats('W', [dimensions, 1], W)]
  let last = 'hidden'
  const slowness = options.slowness ?? 0
  if (slowness > 0) {
    // Work that changes nothing: x·I, repeated, on a widened copy of the hidden states.
    const wide = 512
    const widen = Array.from({ length: dimensions * wide }, (_, i) => (i % wide === Math.floor(i / wide) ? 1 : 0))
    const narrow = Array.from({ length: wide * dimensions }, (_, i) => (Math.floor(i / dimensions) === i % dimensions ? 1 : 0))
    const identity = Array.from({ length: wide * wide }, (_, i) => (Math.floor(i / wide) === i % wide ? 1 : 0))
    initializers.push(floats('widen', [dimensions, wide], widen), floats('narrow', [wide, dimensions], narrow), floats('I', [wide, wide], identity))
    nodes.push({ opType: 'MatMul', inputs: [last, 'widen'], outputs: ['w0'] })
    for (let i = 0; i < slowness; i++) nodes.push({ opType: 'MatMul', inputs: [`w${i}`, 'I'], outputs: [`w${i + 1}`] })
    nodes.push({ opType: 'MatMul', inputs: [`w${slowness}`, 'narrow'], outputs: ['narrowed'] })
    last = 'narrowed'
  }
  // A mean over the real tokens only: padding must not change a passage's score.
  initializers.push(ints('axis2', [2]))
  nodes.push(
    { opType: 'Cast', inputs: ['attention_mask'], outputs: ['mask_f'], attributes: { to: 1 } },
    { opType: 'Unsqueeze', inputs: ['mask_f', 'axis2'], outputs: ['mask3'] },
    { opType: 'Mul', inputs: [last, 'mask3'], outputs: ['masked'] },
    { opType: 'ReduceMean', inputs: ['masked'], outputs: ['total'], attributes: { axes: [1], keepdims: 0 } },
    { opType: 'ReduceMean', inputs: ['mask3'], outputs: ['share'], attributes: { axes: [1], keepdims: 0 } },
    { opType: 'Div', inputs: ['total', 'share'], outputs: ['pooled'] },
    { opType: 'MatMul', inputs: ['pooled', 'W'], outputs: ['logits'] },
  )
  const model = serializeOnnxModel({
    graphName: 'tiny-reranker',
    nodes,
    initializers,
    inputs: [
      { name: 'input_ids', dataType: 'int64', shape: ['batch', 'tokens'] },
      { name: 'attention_mask', dataType: 'int64', shape: ['batch', 'tokens'] },
      { name: 'token_type_ids', dataType: 'int64', shape: ['batch', 'tokens'] },
    ],
    outputs: [{ name: 'logits', dataType: 'float', shape: ['batch', 1] }],
    opsetVersion: 13,
  })
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'model.onnx'), model)
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()))
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig))
  return {
    dir,
    score(query, passage) {
      const q = idsOf(query)
      const p = idsOf(passage).slice(1)
      const rows = [...q.map((id) => [id, 0] as const), ...p.map((id) => [id, 1] as const)].map(([id, type]) => E[id]!.map((v, d) => Math.tanh(v + T[type]![d]!)))
      const pooled = rows[0]!.map((_, d) => rows.reduce((s, r) => s + r[d]!, 0) / rows.length)
      return pooled.reduce((s, v, d) => s + v * W[d]!, 0)
    },
  }
}
