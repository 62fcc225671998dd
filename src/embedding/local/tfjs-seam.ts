/**
 * The slice of TensorFlow.js (bundled inside @energetic-ai/core, wasm backend) that the fast
 * local runner uses. The bundle's own type declarations point at packages that are not installed,
 * so the shapes are declared here once instead of leaking `any`.
 */
export interface TensorInfoLike {
  dataId: object
  shape: number[]
  dtype: string
}

interface TensorLike extends TensorInfoLike {
  array(): Promise<unknown>
  dispose(): void
}

export interface KernelArgs {
  inputs: Record<string, TensorInfoLike> | TensorInfoLike[]
  backend: { disposeData(dataId: object): boolean | void }
  attrs?: Record<string, unknown>
}

type KernelFunc = (args: KernelArgs) => TensorInfoLike | TensorInfoLike[]

export interface KernelConfig {
  kernelName: string
  backendName: string
  kernelFunc: KernelFunc
  setupFunc?: unknown
  disposeFunc?: unknown
}

interface GraphModelLike {
  executeAsync(inputs: Record<string, TensorLike>): Promise<TensorLike>
}

export interface TfjsCore {
  ready(): Promise<void>
  getBackend(): string
  getKernel(kernelName: string, backendName: string): KernelConfig | undefined
  registerKernel(config: KernelConfig): void
  unregisterKernel(kernelName: string, backendName: string): void
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): TensorLike
  tensor1d(values: Int32Array, dtype: 'int32'): TensorLike
}

/** What @energetic-ai/embeddings' EmbeddingsModel exposes at run time (its fields are not in its typings). */
export interface UseLiteModelInternals {
  tokenizer: { encode(text: string): number[] }
  model: GraphModelLike
}

export async function importTfjsCore(): Promise<TfjsCore> {
  return (await import('@energetic-ai/core')) as unknown as TfjsCore
}
