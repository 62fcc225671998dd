import { disableRuntimeTelemetry } from '../../config/index.js'
import { LOCAL_MODEL_NATIVE_DIMENSIONS } from './local-model.js'
import { buildUseLiteOnnx, USE_LITE_ONNX_INPUTS, USE_LITE_ONNX_OUTPUT } from './use-lite-onnx.js'
import { UseLiteTokenizer } from './use-lite-tokenizer.js'
import { encodeModelTokens, USE_LITE_MAX_TOKENS } from './use-lite-runner.js'
import { readUseLiteWeights } from './use-lite-weights.js'

/** USE Lite on onnxruntime's native CPU kernels: the same weights, rebuilt as an ONNX graph. */
interface NativeRunner {
  tokenize(text: string): number[]
  /** Row-major [lists.length × 512] vectors for token id lists (each ≤ 128 ids), in order. */
  embedTokens(tokenLists: readonly number[][]): Promise<Float32Array>
  release(): Promise<void>
}

export interface NativeRunnerOptions {
  /** Threads inside one model call. */
  intraOpThreads: number
  /** Module providing the runtime (tests name one that does not exist). */
  runtimeModule?: string
}

interface OrtTensor {
  data: unknown
  dims: readonly number[]
}

interface OrtSession {
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>
  release(): Promise<void>
}

interface OrtModule {
  Tensor: new (type: 'int32' | 'float32', data: Int32Array | Float32Array, dims: number[]) => OrtTensor
  InferenceSession: {
    create(model: Uint8Array, options: Record<string, unknown>): Promise<OrtSession>
  }
}

export async function createNativeRunner(options: NativeRunnerOptions): Promise<NativeRunner> {
  disableRuntimeTelemetry()
  const ort = (await import(options.runtimeModule ?? 'onnxruntime-node')) as OrtModule
  const weights = await readUseLiteWeights()
  const session = await ort.InferenceSession.create(buildUseLiteOnnx(weights), {
    intraOpNumThreads: Math.max(1, Math.floor(options.intraOpThreads)),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Errors only: the runtime's optimiser notes would otherwise reach the CLI's stderr.
    logSeverityLevel: 3,
    // Threads waiting for work sleep: spinning cost a fifth of the throughput and more CPU as
    // soon as anything else (a search, the database) wanted the same cores.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  })
  const tokenizer = new UseLiteTokenizer(weights.vocabulary)
  return {
    tokenize: (text) => encodeModelTokens(tokenizer, text),
    embedTokens: (tokenLists) => runSession(ort, session, tokenLists),
    release: () => session.release(),
  }
}

async function runSession(ort: OrtModule, session: OrtSession, tokenLists: readonly number[][]): Promise<Float32Array> {
  const batch = tokenLists.length
  if (batch === 0) return new Float32Array(0)
  const time = Math.max(1, Math.min(USE_LITE_MAX_TOKENS, Math.max(...tokenLists.map((ids) => ids.length))))
  const ids = new Int32Array(batch * time)
  const mask = new Float32Array(batch * time)
  tokenLists.forEach((list, row) => {
    const length = Math.min(time, list.length)
    for (let position = 0; position < length; position++) {
      ids[row * time + position] = list[position]!
      mask[row * time + position] = 1
    }
  })
  const output = await session.run({
    [USE_LITE_ONNX_INPUTS.tokenIds]: new ort.Tensor('int32', ids, [batch, time]),
    [USE_LITE_ONNX_INPUTS.mask]: new ort.Tensor('float32', mask, [batch, time]),
  })
  const result = output[USE_LITE_ONNX_OUTPUT]
  if (result === undefined || !(result.data instanceof Float32Array) || result.data.length !== batch * LOCAL_MODEL_NATIVE_DIMENSIONS) {
    throw new Error(`The native model returned no ${batch}×${LOCAL_MODEL_NATIVE_DIMENSIONS} float32 output.`)
  }
  return result.data
}
