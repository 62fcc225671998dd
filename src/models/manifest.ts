import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { NotFoundError, UsageError } from '../errors/index.js'

/** What a model does: turn text into vectors, or score a (query, passage) pair. */
export type ModelKind = 'embedder' | 'reranker'

/** How token vectors become one text vector. `none`: the model already returns one per text. */
export type Pooling = 'mean' | 'cls' | 'none'

/** Where a registered model came from. */
type ModelOrigin = { kind: 'folder'; folder: string } | { kind: 'hub'; hub: string; repo: string; revision: string }

/** How a folder's model is run: what the folder says, unless flags given to `models add` override it. */
export interface ModelSettings {
  /** The ONNX file, relative to the folder. */
  onnxFile: string
  pooling: Pooling
  normalize: boolean
  queryPrefix: string
  passagePrefix: string
  /** Token ids per input, special tokens included; longer inputs are cut. */
  maxTokens: number
}

/**
 * A registered local model, kept as `$BRAIN_HOME/models/<id>/brain-model.json`. Added folders
 * stay where they are (`path` points at them); pulled models live in that same directory.
 */
export interface ModelManifest extends ModelSettings {
  id: string
  kind: ModelKind
  /** The folder holding the ONNX file and tokenizer.json. */
  path: string
  /** An embedder's native vector size (zero-padded to the database's 1536); null for a re-ranker. */
  dimensions: number | null
  origin: ModelOrigin
  addedAt: string
}

const MANIFEST_FILE = 'brain-model.json'

/** Ids are file names and part of each vector's model tag: short, lower-case, no separators. */
const MODEL_ID = /^[a-z0-9][a-z0-9._-]{0,79}$/

function modelsDirectory(home: string): string {
  return join(home, 'models')
}

export function modelDirectory(home: string, id: string): string {
  return join(modelsDirectory(home), assertModelId(id))
}

export function assertModelId(id: string): string {
  if (!MODEL_ID.test(id)) {
    throw new UsageError('invalid_model_id', `"${id}" is not a model id: use lower-case letters, digits, dots, dashes and underscores (at most 80).`, {
      hint: 'Pass --id <name>, e.g. --id bge-small-en',
    })
  }
  return id
}

/** A model id from a folder or hub name: `BAAI/bge-small-en-v1.5` → `bge-small-en-v1.5`. */
export function modelIdFrom(name: string): string {
  const last =
    name
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? name
  const id = last
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 80)
  return id === '' ? 'model' : id
}

/**
 * The tag stored with each vector in content_chunks.model: search compares only vectors of one
 * tag, so two models never mix in one ranking.
 */
export function vectorModelTag(manifest: Pick<ModelManifest, 'id'>): string {
  return `onnx:${manifest.id}`
}

export async function writeManifest(home: string, manifest: ModelManifest): Promise<void> {
  const dir = modelDirectory(home, manifest.id)
  await mkdir(dir, { recursive: true })
  const target = join(dir, MANIFEST_FILE)
  const temporary = `${target}.tmp-${process.pid}`
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 })
  await rename(temporary, target)
}

async function readManifest(home: string, id: string): Promise<ModelManifest | null> {
  try {
    return parseManifest(JSON.parse(await readFile(join(modelDirectory(home, id), MANIFEST_FILE), 'utf8')) as unknown)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

export async function requireManifest(home: string, id: string): Promise<ModelManifest> {
  const manifest = await readManifest(home, id)
  if (manifest === null) throw new NotFoundError('model_not_found', `No model "${id}" in ${modelsDirectory(home)}.`, { hint: 'brain models list' })
  return manifest
}

/** Every registered model, by id. */
export async function listManifests(home: string): Promise<ModelManifest[]> {
  let names: string[]
  try {
    names = await readdir(modelsDirectory(home))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  const manifests: ModelManifest[] = []
  for (const name of names.sort()) {
    if (!MODEL_ID.test(name)) continue
    const manifest = await readManifest(home, name).catch(() => null)
    if (manifest) manifests.push(manifest)
  }
  return manifests
}

function parseManifest(raw: unknown): ModelManifest {
  const m = raw as Partial<ModelManifest>
  if (typeof m.id !== 'string' || (m.kind !== 'embedder' && m.kind !== 'reranker') || typeof m.path !== 'string' || typeof m.onnxFile !== 'string') {
    throw new Error('not a model manifest')
  }
  return {
    id: m.id,
    kind: m.kind,
    path: m.path,
    onnxFile: m.onnxFile,
    pooling: m.pooling === 'cls' || m.pooling === 'none' ? m.pooling : 'mean',
    normalize: m.normalize !== false,
    queryPrefix: typeof m.queryPrefix === 'string' ? m.queryPrefix : '',
    passagePrefix: typeof m.passagePrefix === 'string' ? m.passagePrefix : '',
    maxTokens: typeof m.maxTokens === 'number' && m.maxTokens > 0 ? m.maxTokens : 512,
    dimensions: typeof m.dimensions === 'number' ? m.dimensions : null,
    origin: m.origin ?? { kind: 'folder', folder: m.path },
    addedAt: typeof m.addedAt === 'string' ? m.addedAt : new Date(0).toISOString(),
  }
}
