import { readFile, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { InferenceSession, Tensor } from 'onnxruntime-node'
import { disableRuntimeTelemetry } from '../config/index.js'
import { ProviderError } from '../errors/index.js'
import type { ModelManifest } from './manifest.js'

/** Inputs per model call: a bound on the padded batch's memory. */
const BATCH = 16

interface TokenizerLike {
  encode(text: string, options: { text_pair?: string | null; add_special_tokens?: boolean; return_token_type_ids: true }): { ids: number[]; attention_mask: number[]; token_type_ids: number[] }
}

interface LoadedModel {
  session: InferenceSession
  tokenizer: TokenizerLike
  padId: number
  ort: typeof import('onnxruntime-node')
}

/**
 * Sessions are costly to open (the whole graph is read and optimised), so each folder model is
 * opened once per process and kept; a changed ONNX file (new mtime or size) opens a new one.
 */
const loaded = new Map<string, Promise<LoadedModel>>()

async function load(manifest: ModelManifest): Promise<LoadedModel> {
  const file = join(manifest.path, manifest.onnxFile)
  const info = await stat(file).catch(() => null)
  if (info === null) throw new ProviderError('model_files_missing', `The model ${manifest.id} has no ${file}.`, { hint: `Add the folder again: brain models add <dir> --id ${manifest.id}` })
  const key = `${file}:${info.mtimeMs}:${info.size}`
  let entry = loaded.get(key)
  if (entry === undefined) {
    entry = open(manifest, file)
    loaded.set(key, entry)
    entry.catch(() => loaded.delete(key))
  }
  return entry
}

async function open(manifest: ModelManifest, file: string): Promise<LoadedModel> {
  disableRuntimeTelemetry()
  const [ort, { Tokenizer }] = await Promise.all([import('onnxruntime-node'), import('@huggingface/tokenizers')])
  const tokenizerJson = JSON.parse(await readFile(join(manifest.path, 'tokenizer.json'), 'utf8')) as Record<string, unknown>
  const tokenizerConfig = JSON.parse(await readFile(join(manifest.path, 'tokenizer_config.json'), 'utf8').catch(() => '{}')) as Record<string, unknown>
  let tokenizer: TokenizerLike
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig) as unknown as TokenizerLike
  } catch (err) {
    throw new ProviderError('model_tokenizer_invalid', `The tokenizer.json of ${manifest.id} cannot be read: ${(err as Error).message}`)
  }
  let session: InferenceSession
  try {
    session = await ort.InferenceSession.create(file, {
      intraOpNumThreads: Math.max(1, availableParallelism() - 1),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    })
  } catch (err) {
    throw new ProviderError('model_onnx_invalid', `The ONNX file of ${manifest.id} cannot be loaded: ${(err as Error).message}`)
  }
  if (!session.inputNames.includes('input_ids')) {
    throw new ProviderError('model_onnx_unsupported', `The ONNX graph of ${manifest.id} takes ${session.inputNames.join(', ')}, not input_ids.`, {
      hint: 'Export the model with its tokenizer inputs (input_ids, attention_mask).',
    })
  }
  const padding = (tokenizerJson.padding ?? null) as { pad_id?: unknown } | null
  return { session, tokenizer, padId: typeof padding?.pad_id === 'number' ? padding.pad_id : 0, ort }
}

interface Encoded {
  ids: number[]
  mask: number[]
  types: number[]
}

/** Cuts to maxTokens, keeping the closing special token the tokenizer appended. */
function truncate(encoded: { ids: number[]; attention_mask: number[]; token_type_ids: number[] }, maxTokens: number): Encoded {
  const { ids, attention_mask: mask, token_type_ids: types } = encoded
  if (ids.length <= maxTokens) return { ids, mask, types }
  const keep = maxTokens - 1
  return { ids: [...ids.slice(0, keep), ids[ids.length - 1]!], mask: [...mask.slice(0, keep), 1], types: [...types.slice(0, keep), types[types.length - 1]!] }
}

/** Runs one padded batch; returns the first output (or `preferred` when the graph has it). */
async function run(model: LoadedModel, rows: readonly Encoded[], preferred: readonly string[]): Promise<{ output: Tensor; mask: BigInt64Array; width: number }> {
  const width = Math.max(1, ...rows.map((r) => r.ids.length))
  const ids = new BigInt64Array(rows.length * width).fill(BigInt(model.padId))
  const mask = new BigInt64Array(rows.length * width)
  const types = new BigInt64Array(rows.length * width)
  rows.forEach((row, r) => {
    for (let i = 0; i < row.ids.length; i++) {
      ids[r * width + i] = BigInt(row.ids[i]!)
      mask[r * width + i] = BigInt(row.mask[i] ?? 1)
      types[r * width + i] = BigInt(row.types[i] ?? 0)
    }
  })
  const dims = [rows.length, width]
  const feeds: Record<string, Tensor> = { input_ids: new model.ort.Tensor('int64', ids, dims) }
  if (model.session.inputNames.includes('attention_mask')) feeds.attention_mask = new model.ort.Tensor('int64', mask, dims)
  if (model.session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new model.ort.Tensor('int64', types, dims)
  const outputs = await model.session.run(feeds)
  const name = preferred.find((n) => n in outputs) ?? model.session.outputNames[0]!
  return { output: outputs[name]!, mask, width }
}

/** Pooled, optionally normalised vectors at the model's own size, one per text. */
export async function embedWithModel(manifest: ModelManifest, texts: readonly string[]): Promise<number[][]> {
  const model = await load(manifest)
  const vectors: number[][] = []
  for (let start = 0; start < texts.length; start += BATCH) {
    const rows = texts.slice(start, start + BATCH).map((text) => truncate(model.tokenizer.encode(text, { return_token_type_ids: true }), manifest.maxTokens))
    const { output, mask, width } = await run(model, rows, ['sentence_embedding', 'last_hidden_state', 'token_embeddings'])
    vectors.push(...pool(output, mask, width, rows.length, manifest))
  }
  return vectors
}

function pool(output: Tensor, mask: BigInt64Array, width: number, count: number, manifest: ModelManifest): number[][] {
  const data = output.data as Float32Array
  const dims = output.dims
  const vectors: number[][] = []
  if (dims.length === 2) {
    const size = Number(dims[1])
    for (let r = 0; r < count; r++) vectors.push(Array.from(data.subarray(r * size, (r + 1) * size)))
  } else if (dims.length === 3) {
    const size = Number(dims[2])
    for (let r = 0; r < count; r++) {
      const vector = new Array<number>(size).fill(0)
      if (manifest.pooling === 'cls') {
        for (let d = 0; d < size; d++) vector[d] = data[r * width * size + d]!
      } else {
        let tokens = 0
        for (let t = 0; t < width; t++) {
          if (mask[r * width + t] === 0n) continue
          tokens++
          const base = (r * width + t) * size
          for (let d = 0; d < size; d++) vector[d]! += data[base + d]!
        }
        for (let d = 0; d < size; d++) vector[d] = vector[d]! / Math.max(1, tokens)
      }
      vectors.push(vector)
    }
  } else {
    throw new ProviderError('model_onnx_unsupported', `The model ${manifest.id} returned a ${dims.length}-dimensional output; expected token vectors or one vector per text.`)
  }
  return manifest.normalize ? vectors.map(unit) : vectors
}

function unit(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0))
  return norm > 0 ? vector.map((v) => v / norm) : vector
}

/** A cross-encoder's relevance of each passage to the query (higher is more relevant). */
export async function scoreWithModel(manifest: ModelManifest, query: string, passages: readonly string[]): Promise<number[]> {
  const model = await load(manifest)
  const scores: number[] = []
  for (let start = 0; start < passages.length; start += BATCH) {
    const rows = passages.slice(start, start + BATCH).map((passage) => truncate(model.tokenizer.encode(query, { text_pair: passage, return_token_type_ids: true }), manifest.maxTokens))
    const { output } = await run(model, rows, ['logits', 'scores'])
    const data = output.data as Float32Array
    const per = rows.length > 0 ? data.length / rows.length : 0
    // One logit is the relevance; with two (not relevant, relevant) their difference is.
    for (let r = 0; r < rows.length; r++) scores.push(per >= 2 ? data[r * per + per - 1]! - data[r * per]! : data[r * per]!)
  }
  return scores
}
