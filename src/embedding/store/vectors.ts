import { ProviderError } from '../../errors/index.js'
import { EMBEDDING_DIMENSIONS } from '../constants.js'

/**
 * Zero-pads a shorter vector to the column width. Appended zeros change neither dot products nor
 * norms, so cosine and inner-product search over padded vectors is exact.
 */
export function padToDimensions(vector: ArrayLike<number>, dimensions: number = EMBEDDING_DIMENSIONS): number[] {
  if (vector.length > dimensions) {
    throw new ProviderError('embedding_dimension_mismatch', `Embedding has ${vector.length} dimensions, more than the ${dimensions} the database stores.`, {
      hint: 'Use a model that produces at most 1536 dimensions.',
    })
  }
  const padded = new Array<number>(dimensions).fill(0)
  for (let i = 0; i < vector.length; i++) padded[i] = vector[i]
  return padded
}

/** Rejects vectors the database would refuse or that would poison similarity scores. */
export function assertUsableVector(vector: readonly number[], index: number, dimensions: number = EMBEDDING_DIMENSIONS): void {
  if (vector.length !== dimensions) {
    throw new ProviderError('embedding_dimension_mismatch', `Embedding ${index} has ${vector.length} dimensions; the database stores ${dimensions}.`, {
      hint: 'Use a model that supports the `dimensions` parameter (text-embedding-3-*) or natively returns 1536 dimensions.',
    })
  }
  for (const value of vector) {
    if (!Number.isFinite(value)) {
      throw new ProviderError('embedding_invalid_vector', `Embedding ${index} contains ${value}.`, {
        hint: 'The embedding server returned a broken vector; retry, or check the server.',
      })
    }
  }
}

/** Both the OpenAI API and the local model reject an empty input; a single space embeds as "nothing". */
export function nonEmptyInput(text: string): string {
  return text === '' ? ' ' : text
}
