import type { KernelArgs, KernelConfig, TensorInfoLike, TfjsCore } from './tfjs-seam.js'

const BACKEND = 'wasm'

/**
 * The wasm backend sends a BatchMatMul with a batch dimension or a transposed operand (the
 * model's attention: queries times keys, scores times values) to a scalar loop that runs about
 * ten times slower than its XNNPACK path for plain 2-D products. This override splits such a
 * product into one 2-D product per batch entry (after one transpose of the whole right operand),
 * so every multiply takes the fast path. Results equal the original's up to float summation order.
 */
export function installAttentionMatMul(tf: TfjsCore): () => void {
  const original = tf.getKernel('BatchMatMul', BACKEND)
  if (original === undefined || installed.has(original.kernelFunc)) return () => {}
  const kernels = {
    batchMatMul: original.kernelFunc,
    slice: requireKernel(tf, 'Slice').kernelFunc,
    reshape: requireKernel(tf, 'Reshape').kernelFunc,
    transpose: requireKernel(tf, 'Transpose').kernelFunc,
    concat: requireKernel(tf, 'Concat').kernelFunc,
  }
  const kernelFunc = (args: KernelArgs): TensorInfoLike => splitBatchMatMul(kernels, args)
  installed.add(kernelFunc)
  tf.unregisterKernel('BatchMatMul', BACKEND)
  tf.registerKernel({ ...original, kernelFunc })
  // Restores the stock kernel: the benchmark and the equivalence tests compare both in one process.
  return () => {
    tf.unregisterKernel('BatchMatMul', BACKEND)
    tf.registerKernel(original)
  }
}

const installed = new WeakSet<object>()

type Kernel = (args: KernelArgs) => TensorInfoLike | TensorInfoLike[]

interface Kernels {
  batchMatMul: Kernel
  slice: Kernel
  reshape: Kernel
  transpose: Kernel
  concat: Kernel
}

function requireKernel(tf: TfjsCore, name: string): KernelConfig {
  const kernel = tf.getKernel(name, BACKEND)
  if (kernel === undefined) throw new Error(`The wasm backend has no ${name} kernel.`)
  return kernel
}

function single(info: TensorInfoLike | TensorInfoLike[]): TensorInfoLike {
  return Array.isArray(info) ? info[0]! : info
}

function splitBatchMatMul(k: Kernels, args: KernelArgs): TensorInfoLike {
  const { a, b } = args.inputs as { a: TensorInfoLike; b: TensorInfoLike }
  const transposeA = args.attrs?.['transposeA'] === true
  const transposeB = args.attrs?.['transposeB'] === true
  const rank = a.shape.length
  const sameBatch = rank >= 3 && b.shape.length === rank && a.shape.slice(0, -2).every((d, i) => d === b.shape[i])
  if (!sameBatch || transposeA || a.dtype !== 'float32' || b.dtype !== 'float32') return single(k.batchMatMul(args))
  const backend = args.backend
  const call = (kernel: Kernel, inputs: KernelArgs['inputs'], attrs: Record<string, unknown>): TensorInfoLike => single(kernel({ inputs, backend, attrs }))
  const temporaries: TensorInfoLike[] = []
  const keep = (info: TensorInfoLike): TensorInfoLike => (temporaries.push(info), info)
  try {
    const batch = a.shape.slice(0, -2).reduce((n, d) => n * d, 1)
    const [m, kDim] = a.shape.slice(-2) as [number, number]
    const right = transposeB ? keep(call(k.transpose, { x: b }, { perm: [...b.shape.keys()].map((i) => (i < rank - 2 ? i : i === rank - 2 ? rank - 1 : rank - 2)) })) : b
    const n = right.shape[rank - 1]!
    const left3 = keep(call(k.reshape, { x: a }, { shape: [batch, m, kDim] }))
    const right3 = keep(call(k.reshape, { x: right }, { shape: [batch, kDim, n] }))
    const products: TensorInfoLike[] = []
    for (let i = 0; i < batch; i++) {
      const ai = keep(call(k.slice, { x: left3 }, { begin: [i, 0, 0], size: [1, m, kDim] }))
      const bi = keep(call(k.slice, { x: right3 }, { begin: [i, 0, 0], size: [1, kDim, n] }))
      products.push(keep(call(k.batchMatMul, { a: ai, b: bi }, { transposeA: false, transposeB: false })))
    }
    const joined = products.length === 1 ? products[0]! : keep(call(k.concat, products, { axis: 0 }))
    return call(k.reshape, { x: joined }, { shape: [...a.shape.slice(0, -2), m, n] })
  } finally {
    for (const info of temporaries) backend.disposeData(info.dataId)
  }
}
