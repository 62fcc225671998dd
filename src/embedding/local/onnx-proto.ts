/**
 * A minimal writer for the ONNX protobuf messages a computation graph needs (ModelProto,
 * GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto). Field numbers follow the
 * public onnx.proto; only what the local embedding graph uses is supported.
 */

const OnnxDataType = { float: 1, int32: 6, int64: 7, bool: 9 } as const
type OnnxDataTypeName = keyof typeof OnnxDataType

export type OnnxAttributeValue = number | string | number[] | { floats: number[] } | { float: number } | OnnxTensor

export interface OnnxTensor {
  name: string
  dims: number[]
  dataType: OnnxDataTypeName
  data: Float32Array | Int32Array | BigInt64Array
}

export interface OnnxNode {
  opType: string
  inputs: string[]
  outputs: string[]
  attributes?: Record<string, OnnxAttributeValue>
  domain?: string
}

interface OnnxValueInfo {
  name: string
  dataType: OnnxDataTypeName
  /** A number is a fixed size, a string names a dynamic dimension. */
  shape: (number | string)[]
}

interface OnnxModel {
  graphName: string
  nodes: OnnxNode[]
  initializers: OnnxTensor[]
  inputs: OnnxValueInfo[]
  outputs: OnnxValueInfo[]
  opsetVersion: number
}

const IR_VERSION = 8
const AttributeType = { float: 1, int: 2, string: 3, tensor: 4, floats: 6, ints: 7 } as const

/** Appends protobuf wire-format fields to a growing list of byte chunks. */
class ProtoWriter {
  private readonly chunks: Uint8Array[] = []
  private length = 0

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes)
    this.length += bytes.length
  }

  private varint(value: bigint): void {
    const out: number[] = []
    // Negative int64 values are encoded as their two's complement over ten bytes.
    let v = value < 0n ? (1n << 64n) + value : value
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80)
      v >>= 7n
    }
    out.push(Number(v))
    this.push(Uint8Array.from(out))
  }

  private tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint(BigInt((field << 3) | wireType))
  }

  int(field: number, value: number | bigint): void {
    this.tag(field, 0)
    this.varint(BigInt(value))
  }

  float(field: number, value: number): void {
    this.tag(field, 5)
    const bytes = new Uint8Array(4)
    new DataView(bytes.buffer).setFloat32(0, value, true)
    this.push(bytes)
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2)
    this.varint(BigInt(value.length))
    this.push(value)
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value))
  }

  message(field: number, build: (writer: ProtoWriter) => void): void {
    const inner = new ProtoWriter()
    build(inner)
    // The inner message's chunks are taken as they are: finishing each nested message copied the
    // model's weights once per level of nesting.
    this.tag(field, 2)
    this.varint(BigInt(inner.length))
    for (const chunk of inner.chunks) this.push(chunk)
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length)
    let at = 0
    for (const chunk of this.chunks) {
      out.set(chunk, at)
      at += chunk.length
    }
    return out
  }
}

function writeTensor(w: ProtoWriter, tensor: OnnxTensor): void {
  for (const dim of tensor.dims) w.int(1, dim)
  w.int(2, OnnxDataType[tensor.dataType])
  w.string(8, tensor.name)
  // Raw data is little-endian, as typed arrays are on every platform Node supports.
  w.bytes(9, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength))
}

function writeAttribute(w: ProtoWriter, name: string, value: OnnxAttributeValue): void {
  w.string(1, name)
  if (typeof value === 'number') {
    w.int(3, value)
    w.int(20, AttributeType.int)
  } else if (typeof value === 'string') {
    w.bytes(4, new TextEncoder().encode(value))
    w.int(20, AttributeType.string)
  } else if (Array.isArray(value)) {
    for (const v of value) w.int(8, v)
    w.int(20, AttributeType.ints)
  } else if ('floats' in value) {
    for (const v of value.floats) w.float(7, v)
    w.int(20, AttributeType.floats)
  } else if ('float' in value) {
    w.float(2, value.float)
    w.int(20, AttributeType.float)
  } else {
    w.message(5, (t) => writeTensor(t, value))
    w.int(20, AttributeType.tensor)
  }
}

function writeNode(w: ProtoWriter, node: OnnxNode, index: number): void {
  for (const input of node.inputs) w.string(1, input)
  for (const output of node.outputs) w.string(2, output)
  w.string(3, `${node.opType}_${index}`)
  w.string(4, node.opType)
  for (const [name, value] of Object.entries(node.attributes ?? {})) w.message(5, (a) => writeAttribute(a, name, value))
  if (node.domain !== undefined) w.string(7, node.domain)
}

function writeValueInfo(w: ProtoWriter, info: OnnxValueInfo): void {
  w.string(1, info.name)
  w.message(2, (type) =>
    type.message(1, (tensorType) => {
      tensorType.int(1, OnnxDataType[info.dataType])
      tensorType.message(2, (shape) => {
        for (const dim of info.shape) shape.message(1, (d) => (typeof dim === 'number' ? d.int(1, dim) : d.string(2, dim)))
      })
    }),
  )
}

/** The serialized ModelProto, ready for an ONNX runtime's session constructor. */
export function serializeOnnxModel(model: OnnxModel): Uint8Array {
  const w = new ProtoWriter()
  w.int(1, IR_VERSION)
  w.string(2, 'brain')
  w.message(7, (g) => {
    model.nodes.forEach((node, index) => g.message(1, (n) => writeNode(n, node, index)))
    g.string(2, model.graphName)
    for (const tensor of model.initializers) g.message(5, (t) => writeTensor(t, tensor))
    for (const input of model.inputs) g.message(11, (v) => writeValueInfo(v, input))
    for (const output of model.outputs) g.message(12, (v) => writeValueInfo(v, output))
  })
  w.message(8, (opset) => {
    opset.string(1, '')
    opset.int(2, model.opsetVersion)
  })
  return w.finish()
}
