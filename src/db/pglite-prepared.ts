import type { PGlite, Results } from '@electric-sql/pglite'
import type { SqlParam } from './types.js'

/** The parts of PGLite's module this file uses, passed in because the module loads lazily. */
export interface PgliteProtocol {
  serialize: Pick<typeof import('@electric-sql/pglite').protocol.serialize, 'parse' | 'describe' | 'execute' | 'sync' | 'close'>
  parseResults: typeof import('@electric-sql/pglite').parse.parseResults
  parseDescribeStatementResults: typeof import('@electric-sql/pglite').parse.parseDescribeStatementResults
}

/** Statements kept per engine instance; the least recently used is closed past this. */
const MAX_STATEMENTS = 256

interface Prepared {
  name: string
  /** The parameter types PostgreSQL inferred, which pick each value's serializer. */
  types: number[]
}

/** A parameter as it goes to the engine: text, binary, or null. */
type WireValue = string | ArrayBuffer | ArrayBufferView | null

/** The Bind message's type byte. */
const BIND = 0x42

/**
 * A Bind message for `statement` (the unnamed one for ''), the same bytes PGLite's serializer
 * writes, text values in text format and binary ones in binary format, no result format codes.
 * PGLite's serializer counts each text's UTF-8 length twice in a JavaScript loop and copies the
 * message four times; an import's batch hands it megabytes of JSON, which cost the embedded
 * engine's one thread about 5 ms a megabyte. Node's encoder does the same in a fifth of that.
 */
export function bindMessage(statement: string, values: readonly WireValue[]): Uint8Array {
  const lengths: number[] = new Array<number>(values.length)
  let size = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * values.length + 2 + 2
  for (const [i, value] of values.entries()) {
    lengths[i] = value === null ? -1 : typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength
    size += 4 + Math.max(0, lengths[i]!)
  }
  const out = Buffer.allocUnsafe(1 + size)
  let at = out.writeUInt8(BIND, 0)
  at = out.writeInt32BE(size, at)
  // The unnamed portal, then the statement.
  at = out.writeUInt8(0, at)
  at += out.write(statement, at)
  at = out.writeUInt8(0, at)
  at = out.writeUInt16BE(values.length, at)
  for (const value of values) at = out.writeInt16BE(value === null || typeof value === 'string' ? 0 : 1, at)
  at = out.writeUInt16BE(values.length, at)
  for (const [i, value] of values.entries()) {
    at = out.writeInt32BE(lengths[i]!, at)
    if (value === null) continue
    if (typeof value === 'string') at += out.write(value, at)
    else {
      const bytes = ArrayBuffer.isView(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint8Array(value)
      out.set(bytes, at)
      at += bytes.length
    }
  }
  out.writeInt16BE(0, at)
  return out
}

/**
 * Named statements on the embedded engine. PGLite's own `query` sends every statement as an
 * unnamed one, so each run is parsed, analysed and planned again, in six calls into the engine;
 * the server driver names the statements callers mark `prepared` and PostgreSQL keeps them per
 * connection. Here the embedded engine does the same: a statement is parsed once per engine
 * instance, and each run is one call (bind, describe, execute, sync). Under
 * plan_cache_mode=force_generic_plan (search transactions) its plan is made once as well.
 * Named statements outlive a rolled-back transaction, so a statement that failed to run stays
 * usable.
 */
export class PreparedStatements {
  private readonly byText = new Map<string, Prepared>()
  private count = 0

  constructor(
    private readonly pg: PGlite,
    private readonly protocol: PgliteProtocol,
  ) {}

  /** Runs `text` as a named statement; the caller holds the engine (inside its transaction). */
  async query<R>(text: string, params: readonly SqlParam[]): Promise<Results<R>> {
    const { serialize, parseResults } = this.protocol
    let statement = this.byText.get(text)
    if (statement) {
      this.byText.delete(text)
      this.byText.set(text, statement)
    } else {
      statement = await this.prepare(text)
    }
    const message = concat([bindMessage(statement.name, this.wireValues(statement.types, params)), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()])
    const { messages } = await this.pg.runExclusive(() => this.pg.execProtocol(message, { syncToFs: false }))
    return parseResults(messages, this.pg.parsers)[0] as Results<R>
  }

  /**
   * Runs `text` as the unnamed statement, as PGLite's own `query` does (parsed and planned at every
   * run), in two calls into the engine instead of six, with the parameters bound by bindMessage.
   * The caller holds the engine (inside its transaction).
   */
  async unnamed<R>(text: string, params: readonly SqlParam[]): Promise<Results<R>> {
    const { serialize, parseResults, parseDescribeStatementResults } = this.protocol
    const described = concat([serialize.parse({ text }), serialize.describe({ type: 'S' }), serialize.sync()])
    const messages = await this.pg.runExclusive(async () => {
      const types = parseDescribeStatementResults((await this.pg.execProtocol(described, { syncToFs: false })).messages)
      const run = concat([bindMessage('', this.wireValues(types, params)), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()])
      return (await this.pg.execProtocol(run, { syncToFs: false })).messages
    })
    return parseResults(messages, this.pg.parsers)[0] as Results<R>
  }

  /** Each parameter through the serializer of the type PostgreSQL inferred for it, as PGLite's `query` does. */
  private wireValues(types: readonly number[], params: readonly SqlParam[]): WireValue[] {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = this.pg.serializers[types[i]!]
      return serializer ? (serializer(value) as WireValue) : String(value)
    })
  }

  private async prepare(text: string): Promise<Prepared> {
    const { serialize, parseDescribeStatementResults } = this.protocol
    const name = `brain_${++this.count}`
    const parts = [serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]
    if (this.byText.size >= MAX_STATEMENTS) {
      const [oldestText, oldest] = this.byText.entries().next().value as [string, Prepared]
      this.byText.delete(oldestText)
      parts.unshift(serialize.close({ type: 'S', name: oldest.name }))
    }
    const message = concat(parts)
    const { messages } = await this.pg.runExclusive(() => this.pg.execProtocol(message, { syncToFs: false }))
    const prepared = { name, types: parseDescribeStatementResults(messages) }
    this.byText.set(text, prepared)
    return prepared
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
