import type { PGlite, Results } from '@electric-sql/pglite'
import type { SqlParam } from './types.js'

/** The parts of PGLite's module this file uses, passed in because the module loads lazily. */
export interface PgliteProtocol {
  serialize: Pick<typeof import('@electric-sql/pglite').protocol.serialize, 'parse' | 'describe' | 'bind' | 'execute' | 'sync' | 'close'>
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
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = this.pg.serializers[statement.types[i]!]
      return serializer ? serializer(value) : String(value)
    })
    const message = concat([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()])
    const { messages } = await this.pg.runExclusive(() => this.pg.execProtocol(message, { syncToFs: false }))
    return parseResults(messages, this.pg.parsers)[0] as Results<R>
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
