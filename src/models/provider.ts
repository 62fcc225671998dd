import { readConfigValue, type EmbeddingConfig } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { assertUsableVector, LOCAL_MODEL_ID, nonEmptyInput, padToDimensions, type EmbeddingProvider, type EmbedOptions } from '../embedding/index.js'
import { embeddingProviderFor } from '../embedding/store/index.js'
import { ProviderError } from '../errors/index.js'
import { requireManifest, vectorModelTag, type ModelManifest } from './manifest.js'
import { embedWithModel } from './onnx-model.js'

/** The brain's active local embedding model (a registered id); absent means the shipped model. */
export const ACTIVE_MODEL_KEY = 'embedding.model'

/** The shipped offline model, listed and chosen under this id. */
export const BUILTIN_MODEL_ID = 'use-lite'

/**
 * The embedder a brain uses: with the local provider, the model the brain has switched to (a
 * folder model) or the shipped one; otherwise the configured OpenAI-compatible provider. The
 * choice lives in the database, so every process writing this brain embeds with the same model.
 */
export async function activeEmbeddingProvider(db: SqlExecutor, config: { home: string; embedding: EmbeddingConfig }): Promise<EmbeddingProvider> {
  if (config.embedding.provider === 'local') {
    const id = await readConfigValue(db, ACTIVE_MODEL_KEY)
    if (id !== null && id !== BUILTIN_MODEL_ID) {
      try {
        return folderEmbeddingProvider(await requireManifest(config.home, id))
      } catch (err) {
        return unavailableProvider(id, err)
      }
    }
  }
  return embeddingProviderFor(config.embedding)
}

/**
 * The brain's model is not registered on this machine (another machine switched it, or its folder
 * went away). Writes still store their pages, with chunks left for `brain embed --stale`, and
 * hybrid search runs on keywords and says why: the same as an unreachable provider.
 */
function unavailableProvider(id: string, cause: unknown): EmbeddingProvider {
  const message = cause instanceof Error ? cause.message : String(cause)
  return {
    name: 'local',
    model: vectorModelTag({ id }),
    embed: () =>
      Promise.reject(
        new ProviderError('model_unavailable', `The brain embeds with ${id}, which this machine cannot load: ${message}`, {
          hint: `brain models add <dir> --id ${id} (or brain models pull), then brain embed --stale`,
        }),
      ),
  }
}

/** The provider of a model id as `brain models use` names it. */
export async function embeddingProviderOfModel(home: string, id: string, embedding: EmbeddingConfig): Promise<EmbeddingProvider> {
  if (id === BUILTIN_MODEL_ID) return embeddingProviderFor({ ...embedding, provider: 'local' })
  const manifest = await requireManifest(home, id)
  if (manifest.kind !== 'embedder') throw new ProviderError('model_not_embedder', `${id} is a ${manifest.kind}, not an embedding model.`, { hint: 'brain models list' })
  return folderEmbeddingProvider(manifest)
}

/** The vector tag of a model id; the shipped model keeps the tag its vectors always had. */
export function modelTagOf(id: string): string {
  return id === BUILTIN_MODEL_ID ? LOCAL_MODEL_ID : vectorModelTag({ id })
}

/** Embeds with a folder model: the query or passage prefix, pooling, normalisation, zero-padding. */
function folderEmbeddingProvider(manifest: ModelManifest): EmbeddingProvider {
  return {
    name: 'local',
    model: vectorModelTag(manifest),
    async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
      options.signal?.throwIfAborted()
      if (texts.length === 0) return []
      const prefix = options.purpose === 'query' ? manifest.queryPrefix : manifest.passagePrefix
      const vectors = await embedWithModel(
        manifest,
        texts.map((text) => prefix + nonEmptyInput(text)),
      )
      options.signal?.throwIfAborted()
      return vectors.map((vector, index) => {
        const padded = padToDimensions(vector)
        assertUsableVector(padded, index)
        return padded
      })
    },
  }
}
