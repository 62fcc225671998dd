/**
 * Local models: sentence-embedding models and cross-encoder re-rankers in the common ONNX folder
 * layout, registered under `$BRAIN_HOME/models/<id>/` and run in-process on onnxruntime with the
 * model's own tokenizer.json.
 * - `manifest.ts`: the registry (one brain-model.json per model) and the vector tag of a model;
 * - `inspect.ts` / `pull.ts`: reading a folder's settings, and downloading one from a hub;
 * - `onnx-model.ts`: tokenising, running, pooling and normalising;
 * - `provider.ts`: the brain's active embedder (the choice lives in the database);
 * - `switch.ts`: changing the active model by re-embedding beside the old vectors;
 * - `rerank.ts`: re-scoring `query`'s first results within a latency budget.
 * Heavy modules (onnxruntime, the tokenizer) load when a model is first run.
 * May import: config, db, embedding, errors, util.
 */
import { resolve } from 'node:path'
import type { SqlExecutor } from '../db/index.js'
import { LOCAL_MODEL_ID, LOCAL_MODEL_NATIVE_DIMENSIONS } from '../embedding/index.js'
import { ProviderError } from '../errors/index.js'
import { inspectModelFolder, type FolderOverrides } from './inspect.js'
import { assertModelId, listManifests, modelDirectory, modelIdFrom, vectorModelTag, writeManifest, type ModelKind, type ModelManifest } from './manifest.js'
import { embedWithModel, scoreWithModel } from './onnx-model.js'
import { BUILTIN_MODEL_ID } from './provider.js'
import { pullModelFiles, type PulledFile, type PullProgress } from './pull.js'
import { activeModelId, nextModelId } from './switch.js'

export { requireManifest, type ModelManifest, type ModelKind, type Pooling } from './manifest.js'
export { activeEmbeddingProvider, embeddingProviderOfModel, modelTagOf, BUILTIN_MODEL_ID, ACTIVE_MODEL_KEY } from './provider.js'
export { runModelSwitch, beginModelSwitch, cancelModelSwitch, activeModelId, nextModelId, NEXT_MODEL_KEY, type SwitchProgress, type SwitchResult } from './switch.js'
export { rerankSettings, scoreChunks, RERANKER_KEY, RERANK_TOP_KEY, RERANK_BUDGET_KEY } from './rerank.js'
export type { PullProgress } from './pull.js'

export interface AddModelOptions extends FolderOverrides {
  id?: string
  kind?: ModelKind
}

/** A row of `brain models list`. */
export interface ModelListing {
  id: string
  kind: ModelKind
  /** The vector tag stored with each chunk's embedding (embedders). */
  tag: string | null
  dimensions: number | null
  path: string | null
  active: boolean
  /** Being switched to: its vectors are being computed. */
  next: boolean
  reranker: boolean
  /** Chunks holding a vector of this model. */
  vectors: number
}

/**
 * Registers a model folder where it is (nothing is copied): reads its settings, runs it once to
 * learn its vector size (an embedder) or to check it scores (a re-ranker), and writes its manifest.
 */
export async function addModel(home: string, folder: string, options: AddModelOptions = {}): Promise<ModelManifest> {
  const path = resolve(folder)
  const kind = options.kind ?? 'embedder'
  const id = assertModelId(options.id ?? modelIdFrom(path))
  if (id === BUILTIN_MODEL_ID) throw new ProviderError('model_id_taken', `${id} names the shipped model.`, { hint: 'Pass --id <another name>.' })
  const settings = await inspectModelFolder(path, kind, options)
  const draft: ModelManifest = { id, kind, path, ...settings, dimensions: null, origin: { kind: 'folder', folder: path }, addedAt: new Date().toISOString() }
  const manifest = await probe(draft)
  await writeManifest(home, manifest)
  return manifest
}

/** Downloads a model from the hub into `$BRAIN_HOME/models/<id>/` and registers it there. */
export async function pullModel(
  home: string,
  repo: string,
  options: AddModelOptions & { hub: string; revision?: string; onProgress?: (p: PullProgress) => void; signal?: AbortSignal },
): Promise<{ manifest: ModelManifest; files: PulledFile[] }> {
  const kind = options.kind ?? 'embedder'
  const id = assertModelId(options.id ?? modelIdFrom(repo))
  const target = modelDirectory(home, id)
  const pulled = await pullModelFiles(repo, target, { hub: options.hub, revision: options.revision, onnxFile: options.onnxFile, onProgress: options.onProgress, signal: options.signal })
  const settings = await inspectModelFolder(target, kind, { ...options, onnxFile: pulled.onnxFile })
  const draft: ModelManifest = {
    id,
    kind,
    path: target,
    ...settings,
    dimensions: null,
    origin: { kind: 'hub', hub: options.hub, repo, revision: pulled.revision },
    addedAt: new Date().toISOString(),
  }
  const manifest = await probe(draft)
  await writeManifest(home, manifest)
  return { manifest, files: pulled.files }
}

async function probe(manifest: ModelManifest): Promise<ModelManifest> {
  if (manifest.kind === 'reranker') {
    const [score] = await scoreWithModel(manifest, 'probe', ['probe passage'])
    if (score === undefined || !Number.isFinite(score)) throw new ProviderError('model_probe_failed', `${manifest.id} returned no usable score.`)
    return manifest
  }
  const [vector] = await embedWithModel(manifest, ['probe'])
  if (vector === undefined || vector.length === 0 || vector.some((v) => !Number.isFinite(v))) throw new ProviderError('model_probe_failed', `${manifest.id} returned no usable vector.`)
  if (vector.length > 1536) {
    throw new ProviderError('model_too_many_dimensions', `${manifest.id} makes ${vector.length}-dimensional vectors; the brain stores at most 1536.`)
  }
  return { ...manifest, dimensions: vector.length }
}

/** The shipped model and every registered one, with which is active and how many vectors each has. */
export async function listModels(db: SqlExecutor, home: string, reranker: string | null): Promise<ModelListing[]> {
  const [manifests, active, next, counts] = await Promise.all([listManifests(home), activeModelId(db), nextModelId(db), vectorCounts(db)])
  const builtin: ModelListing = {
    id: BUILTIN_MODEL_ID,
    kind: 'embedder',
    tag: LOCAL_MODEL_ID,
    dimensions: LOCAL_MODEL_NATIVE_DIMENSIONS,
    path: null,
    active: active === BUILTIN_MODEL_ID,
    next: next === BUILTIN_MODEL_ID,
    reranker: false,
    vectors: counts.get(LOCAL_MODEL_ID) ?? 0,
  }
  return [
    builtin,
    ...manifests.map((m) => {
      const tag = m.kind === 'embedder' ? vectorModelTag(m) : null
      return {
        id: m.id,
        kind: m.kind,
        tag,
        dimensions: m.dimensions,
        path: m.path,
        active: active === m.id,
        next: next === m.id,
        reranker: reranker === m.id,
        vectors: tag === null ? 0 : (counts.get(tag) ?? 0),
      }
    }),
  ]
}

async function vectorCounts(db: SqlExecutor): Promise<Map<string, number>> {
  const { rows } = await db.query<{ model: string; n: number }>('SELECT model, count(*)::int AS n FROM content_chunks WHERE embedding IS NOT NULL GROUP BY model')
  return new Map(rows.map((r) => [r.model, Number(r.n)]))
}
