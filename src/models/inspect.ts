import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ValidationError } from '../errors/index.js'
import { lexicallyWithin } from '../util/contained-path.js'
import type { ModelKind, ModelSettings, Pooling } from './manifest.js'

/** ONNX files in the order a folder is searched; full precision first, then quantised variants. */
export const ONNX_CANDIDATES = ['model.onnx', 'onnx/model.onnx', 'model_quantized.onnx', 'onnx/model_quantized.onnx', 'model_int8.onnx', 'onnx/model_int8.onnx', 'onnx/model_qint8_avx512.onnx']

export type FolderOverrides = Partial<ModelSettings>

const DEFAULT_MAX_TOKENS = 512

/**
 * Reads a folder in the common sentence-transformers ONNX layout: `tokenizer.json`, an ONNX file
 * (`model.onnx`, `onnx/model.onnx` or a quantised variant), and optionally `1_Pooling/config.json`
 * (pooling), `modules.json` (a Normalize step), `config_sentence_transformers.json` (query and
 * passage prompts) and `tokenizer_config.json` (the longest input).
 */
export async function inspectModelFolder(path: string, kind: ModelKind, overrides: FolderOverrides = {}): Promise<ModelSettings> {
  if (!(await exists(join(path, 'tokenizer.json')))) {
    throw new ValidationError('model_folder_incomplete', `${path} has no tokenizer.json.`, { hint: 'A model folder holds tokenizer.json and an ONNX file (model.onnx or onnx/model.onnx).' })
  }
  if (overrides.onnxFile !== undefined) assertInsideFolder(path, overrides.onnxFile)
  const onnxFile = overrides.onnxFile ?? (await firstExisting(path, ONNX_CANDIDATES))
  if (onnxFile === null || !(await exists(join(path, onnxFile)))) {
    throw new ValidationError('model_folder_incomplete', `${path} has no ONNX file${overrides.onnxFile ? ` ${overrides.onnxFile}` : ''}.`, {
      hint: `Looked for ${ONNX_CANDIDATES.join(', ')}; name another with --file.`,
    })
  }
  const prompts = await readJson(join(path, 'config_sentence_transformers.json'))
  const promptOf = (...names: string[]): string => {
    const table = (prompts?.prompts ?? {}) as Record<string, unknown>
    for (const name of names) if (typeof table[name] === 'string') return table[name]
    return ''
  }
  return {
    onnxFile,
    pooling: overrides.pooling ?? (kind === 'reranker' ? 'none' : await poolingOf(path)),
    normalize: overrides.normalize ?? (kind === 'embedder' ? await normalizes(path) : false),
    queryPrefix: overrides.queryPrefix ?? promptOf('query'),
    passagePrefix: overrides.passagePrefix ?? promptOf('passage', 'document'),
    maxTokens: overrides.maxTokens ?? (await maxTokensOf(path)),
  }
}

/** `--file` names a file inside the model's folder, never one beside or above it. */
export function assertInsideFolder(folder: string, file: string): void {
  if (!lexicallyWithin(folder, file)) {
    throw new ValidationError('model_file_outside_folder', `--file ${file} is not a path inside the model folder.`, { hint: 'Name it relative to the folder, e.g. onnx/model_quantized.onnx' })
  }
}

async function poolingOf(path: string): Promise<Pooling> {
  const config = await readJson(join(path, '1_Pooling', 'config.json'))
  if (config?.pooling_mode_cls_token === true) return 'cls'
  return 'mean'
}

/**
 * Embedders are normalised unless the folder lists its modules without a Normalize step: search
 * ranks by cosine, and unit vectors make the database's distances agree with it.
 */
async function normalizes(path: string): Promise<boolean> {
  const modules = await readJson(join(path, 'modules.json'))
  if (!Array.isArray(modules)) return true
  return modules.some((m) => typeof m === 'object' && m !== null && String((m as { type?: unknown }).type ?? '').endsWith('Normalize'))
}

async function maxTokensOf(path: string): Promise<number> {
  const tokenizerConfig = await readJson(join(path, 'tokenizer_config.json'))
  const declared = Number(tokenizerConfig?.model_max_length)
  // Tokenizer configs without a limit carry a huge sentinel; positions past 512 are rare in these models.
  return Number.isInteger(declared) && declared > 0 && declared <= 8192 ? declared : DEFAULT_MAX_TOKENS
}

async function firstExisting(path: string, names: readonly string[]): Promise<string | null> {
  for (const name of names) if (await exists(join(path, name))) return name
  return null
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  } catch {
    return null
  }
}
