import { ProviderError } from '../../errors/index.js'
import { assertUsableVector } from '../store/vectors.js'

/** The parts of an embeddings response this module reads; validated, not trusted. */
interface RawEmbeddingItem {
  index?: unknown
  embedding?: unknown
}

/**
 * Turns one embeddings response into vectors in input order. Servers may answer base64 (what we
 * ask for: a third of the JSON size) or ignore encoding_format and send float arrays; both work.
 */
export function vectorsFromResponse(response: unknown, expected: number): number[][] {
  const data = (response as { data?: unknown } | null)?.data
  if (!Array.isArray(data) || data.length !== expected) {
    throw malformed(`expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`)
  }
  const vectors = new Array<number[] | undefined>(expected)
  data.forEach((item: RawEmbeddingItem, position) => {
    const index = typeof item?.index === 'number' ? item.index : position
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index] !== undefined) {
      throw malformed(`embedding index ${String(item?.index)} is out of range or repeated`)
    }
    const vector = decodeEmbedding(item?.embedding)
    assertUsableVector(vector, index)
    vectors[index] = vector
  })
  return vectors as number[][]
}

function decodeEmbedding(embedding: unknown): number[] {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64')
    if (bytes.length % 4 !== 0) throw malformed('base64 embedding is not a whole number of float32 values')
    const vector = new Array<number>(bytes.length / 4)
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4)
    return vector
  }
  if (Array.isArray(embedding) && embedding.every((value) => typeof value === 'number')) return embedding as number[]
  throw malformed('embedding is neither base64 text nor an array of numbers')
}

function malformed(reason: string): ProviderError {
  return new ProviderError('embedding_response_invalid', `The embedding server sent an unusable response: ${reason}.`, {
    hint: 'The server is not OpenAI-compatible for /embeddings, or failed mid-response; check the base URL and server logs.',
  })
}
