import type { SqlExecutor } from '../db/index.js'
import type { AnalysedPage, BatchVectors, PageVectors } from './search-vectors.js'
import { ASCIIWORD, leftCharacters, readableHere, scanText, UINT } from './text-tokens.js'

/**
 * The full-text vectors of new pages worked out in this process, so that the embedded engine's one
 * thread does not parse every text twice (once for the page, once for its chunks) with its
 * WebAssembly parser. What the vectors are is still the database's: the plain part of each text is
 * cut here exactly as its default parser cuts it (text-tokens.ts), every other group is cut by
 * that parser in one statement, and each distinct token is reduced to its lexeme by the
 * configuration's own dictionary in another, kept for the import's next batches. Positions,
 * weights and the concatenation of the parts follow to_tsvector, setweight and || (PostgreSQL's
 * parsetext, uniqueWORD and tsvector_concat). A configuration whose dictionaries this cannot follow
 * (a chain of several, a thesaurus, ispell) and a page holding CJK text or a tag the parser decides
 * past its first `>` get no vectors: the insert triggers analyse them as before.
 * `test/pages/search-vectors-here.test.ts` compares the bytes.
 */

/** Limits of a vector (PostgreSQL's ts_type.h). */
const MAX_POSITION = (1 << 14) - 1
const MAX_POSITIONS = 256
const WEIGHT_LETTERS = ['D', 'C', 'B', 'A']

/** Tokens whose reductions are kept between batches before they are forgotten. */
const MAX_TOKENS_KEPT = 200_000

/** What a token id stands for once reduced: a lexeme's index, or one of these. */
const UNREDUCED = -3
/** A token that takes no position (its type has no dictionary, its dictionary did not know it, or it is too long). */
const NO_POSITION = -2
/** A stop word: a position and no lexeme. */
const STOP = -1
/** A token its dictionary made several lexemes of, which this does not follow: its page is left to the triggers. */
const SEVERAL = -4

/** A lexeme's positions, each encoded as position × 4 + weight (D 0 … A 3). */
type Vector = Map<number, number[]>

/** A text read into token ids; a negative entry −(g + 1) stands for group g, cut by the database. */
type TokenIds = number[]

/** The configuration's dictionary of each token type, and what it made of each token so far. */
export class InProcessAnalyser {
  // What was reduced stays for the next batches of an import, up to MAX_TOKENS_KEPT tokens: the
  // analyser lives as long as the database (a resident service's), and a mailbox brings new words
  // for ever. Groups (dates, addresses) rarely come back and are kept for one batch only.
  private readonly ids = new Map<string, number>()
  /** Per token id: its type's dictionary (0 for none), its text, and what it was reduced to. */
  private readonly dictOf: number[] = []
  private readonly textOf: string[] = []
  private readonly reduced: number[] = []
  private readonly lexemes: string[] = []
  private readonly lexemeIds = new Map<string, number>()
  private readonly quoted: string[] = []
  private readonly groupIds = new Map<string, number>()
  private readonly groups: Array<TokenIds | null> = []

  private constructor(
    readonly config: string,
    private readonly parser: number,
    private readonly dictionaries: ReadonlyMap<number, number>,
    /** The byte length from which a token is skipped: 2,047 in one release of the engine, 2,048 in another. */
    private readonly tooLong: number,
  ) {}

  /** An analyser for the brain's language, or null when its configuration is one this cannot follow. */
  static async open(db: SqlExecutor): Promise<InProcessAnalyser | null> {
    const { rows } = await db.query<{ config: string; parser: number; default_parser: boolean }>(
      `SELECT c.oid::regconfig::text AS config, c.cfgparser::int AS parser, p.prsname = 'default' AS default_parser
       FROM pg_ts_config c JOIN pg_ts_parser p ON p.oid = c.cfgparser WHERE c.oid = brain_search_language()`,
    )
    const found = rows[0]
    if (found === undefined || !found.default_parser) return null
    // The plain reading names its tokens by the default parser's ids.
    const types = await db.query<{ tokid: number; alias: string }>(`SELECT tokid, alias FROM ts_token_type('default') WHERE alias IN ('asciiword', 'uint')`)
    const id = (alias: string): number | undefined => types.rows.find((r) => r.alias === alias)?.tokid
    if (id('asciiword') !== ASCIIWORD || id('uint') !== UINT) return null
    const maps = await db.query<{ type: number; dict: number; steps: number; template: string }>(
      `SELECT m.maptokentype AS type, min(m.mapdict)::int AS dict, count(*)::int AS steps, min(t.tmplname) AS template
       FROM pg_ts_config_map m JOIN pg_ts_dict d ON d.oid = m.mapdict JOIN pg_ts_template t ON t.oid = d.dicttemplate
       WHERE m.mapcfg = $1::regconfig GROUP BY m.maptokentype`,
      [found.config],
    )
    const dictionaries = new Map<number, number>()
    for (const m of maps.rows) {
      // One dictionary per token type, of a kind that gives at most one lexeme per token.
      if (Number(m.steps) !== 1 || (m.template !== 'snowball' && m.template !== 'simple')) return null
      dictionaries.set(Number(m.type), Number(m.dict))
    }
    const limit = await db.query<{ too_long: number | null }>(`SELECT min(n)::int AS too_long FROM generate_series(2046, 2049) AS n WHERE length(to_tsvector('simple', repeat('z', n))) = 0`)
    const tooLong = limit.rows[0]?.too_long
    if (tooLong === null || tooLong === undefined || tooLong <= 2046) return null
    return new InProcessAnalyser(found.config, Number(found.parser), dictionaries, Number(tooLong))
  }

  /** The vectors of these pages; a page this cannot read is left out (its triggers analyse it). */
  async analyse(db: SqlExecutor, pages: readonly AnalysedPage[]): Promise<BatchVectors | null> {
    const readable = pages.filter(
      (p) => readableHere(p.title) && readableHere(p.compiledTruth) && p.chunks.every((c) => readableHere(c.text) && readableHere(c.docComment ?? '') && readableHere(c.symbolNameQualified ?? '')),
    )
    if (readable.length === 0) return null
    this.forget()
    const read = readable.map((p) => ({
      title: this.read(leftCharacters(p.title, 4096)),
      body: this.read(leftCharacters(p.compiledTruth, 262144)),
      chunks: p.chunks.map((c) => [this.read(c.docComment ?? ''), this.read(c.symbolNameQualified ?? ''), this.read(c.text)] as const),
    }))
    await this.parseGroups(db)
    await this.reduce(db)
    const byPage = new Map<number, PageVectors>()
    for (const [i, p] of readable.entries()) {
      const r = read[i]!
      const page = this.vector([r.title, 3], [r.body, 2])
      const chunks = r.chunks.map(([doc, symbol, text]) => this.vector([doc, 3], [symbol, 3], [text, 2]))
      if (page === null || chunks.some((v) => v === null)) continue
      byPage.set(p.key, {
        page: this.vectorText(page),
        chunks: chunks.map((v) => {
          const length = vectorLength(v!)
          return { vector: this.vectorText(v!), length, tiers: this.tiersText(v!, length) }
        }),
      })
    }
    return byPage.size === 0 ? null : { config: this.config, byPage }
  }

  /** Drops the groups of the batch before, and every kept token once there are too many. */
  private forget(): void {
    this.groupIds.clear()
    this.groups.length = 0
    if (this.ids.size <= MAX_TOKENS_KEPT) return
    this.ids.clear()
    this.dictOf.length = 0
    this.textOf.length = 0
    this.reduced.length = 0
    this.lexemes.length = 0
    this.lexemeIds.clear()
    this.quoted.length = 0
  }

  private tokenId(key: string, text: string, type: number): number {
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.textOf.length
      this.ids.set(key, id)
      this.textOf.push(text)
      const dict = this.dictionaries.get(type) ?? 0
      this.dictOf.push(dict)
      this.reduced.push(dict === 0 || Buffer.byteLength(text, 'utf8') >= this.tooLong ? NO_POSITION : UNREDUCED)
    }
    return id
  }

  /** The text's token ids, its groups for the database's parser noted (each distinct one once). */
  private read(text: string): TokenIds {
    const ids: TokenIds = []
    scanText(text, {
      plain: (t, start, end, type) => {
        const token = t.slice(start, end)
        // A letter run and a digit run never spell the same text: the text alone is the key.
        ids.push(this.tokenId(token, token, type))
      },
      group: (t, start, end) => {
        const group = t.slice(start, end)
        let g = this.groupIds.get(group)
        if (g === undefined) {
          g = this.groups.length
          this.groupIds.set(group, g)
          this.groups.push(null)
        }
        ids.push(-(g + 1))
      },
    })
    return ids
  }

  /** Cuts the groups not cut yet with the database's parser, in one statement. */
  private async parseGroups(db: SqlExecutor): Promise<void> {
    const fresh: number[] = []
    for (let g = 0; g < this.groups.length; g++) if (this.groups[g] === null) fresh.push(g)
    if (fresh.length === 0) return
    const texts: string[] = new Array<string>(this.groups.length)
    for (const [text, g] of this.groupIds) texts[g] = text
    // One text back, groups split by \x02 and tokens by \x01 (a text holding either is not read
    // here): a row per token costs the embedded engine several times the parsing.
    const { rows } = await db.query<{ parsed: string | null }>(
      `SELECT string_agg(x.tokens, E'\\x02' ORDER BY x.i) AS parsed
       FROM (SELECT g.i, coalesce((SELECT string_agg(p.tokid || ' ' || p.token, E'\\x01' ORDER BY p.n)
                                   FROM ts_parse($1::oid, g.t) WITH ORDINALITY AS p(tokid, token, n)), '') AS tokens
             FROM unnest($2::text[]) WITH ORDINALITY AS g(t, i)) AS x`,
      [this.parser, fresh.map((g) => texts[g]!)],
    )
    const parsed = (rows[0]?.parsed ?? '').split('\x02')
    if (parsed.length !== fresh.length) throw new Error('the parser answered for another number of groups')
    for (const [k, g] of fresh.entries()) {
      const tokens: TokenIds = []
      for (const entry of parsed[k] === '' ? [] : parsed[k]!.split('\x01')) {
        const space = entry.indexOf(' ')
        const type = Number(entry.slice(0, space))
        const token = entry.slice(space + 1)
        const key = type === ASCIIWORD || type === UINT ? token : `${type}\u0000${token}`
        tokens.push(this.tokenId(key, token, type))
      }
      this.groups[g] = tokens
    }
  }

  /** Reduces every token not reduced yet with its type's dictionary, in one statement. */
  private async reduce(db: SqlExecutor): Promise<void> {
    const wanted: number[] = []
    for (let id = 0; id < this.reduced.length; id++) if (this.reduced[id] === UNREDUCED) wanted.push(id)
    if (wanted.length === 0) return
    const { rows } = await db.query<{ i: number; lexemes: string[] | null }>(
      `SELECT x.i::int AS i, ts_lexize(x.dict::regdictionary, x.token) AS lexemes FROM unnest($1::oid[], $2::text[]) WITH ORDINALITY AS x(dict, token, i)`,
      [wanted.map((id) => this.dictOf[id]!), wanted.map((id) => this.textOf[id]!)],
    )
    for (const r of rows) {
      const id = wanted[Number(r.i) - 1]!
      const lexemes = r.lexemes
      this.reduced[id] = lexemes === null ? NO_POSITION : lexemes.length === 0 ? STOP : lexemes.length === 1 ? this.lexemeId(lexemes[0]!) : SEVERAL
    }
  }

  private lexemeId(lexeme: string): number {
    let id = this.lexemeIds.get(lexeme)
    if (id === undefined) {
      id = this.lexemes.length
      this.lexemeIds.set(lexeme, id)
      this.lexemes.push(lexeme)
      this.quoted.push(`${tsvectorLexeme(lexeme)}:`)
    }
    return id
  }

  /**
   * setweight(to_tsvector(text), w) of each part, joined with ||: positions count every token a
   * dictionary handled (stop words too), a lexeme keeps at most MAXNUMPOS − 1 of them and none after
   * the last one (uniqueWORD); each part's positions move past the highest so far, a lexeme then
   * keeps at most MAXNUMPOS (tsvector_concat's add_pos).
   */
  private vector(...parts: ReadonlyArray<readonly [TokenIds, number]>): Vector | null {
    const out: Vector = new Map()
    let maxpos = 0
    for (const [ids, weight] of parts) {
      const own = this.partVector(ids)
      if (own === null) return null
      if (own.size === 0) continue
      const shift = maxpos
      for (const [lexeme, positions] of own) {
        let into = out.get(lexeme)
        if (into === undefined) out.set(lexeme, (into = []))
        for (const pos of positions) {
          if (into.length >= MAX_POSITIONS || (into.length > 0 && into[into.length - 1]! >> 2 === MAX_POSITION)) break
          const at = Math.min(pos + shift, MAX_POSITION)
          into.push(at * 4 + weight)
          if (at > maxpos) maxpos = at
        }
      }
    }
    return out
  }

  /** to_tsvector of one part: each lexeme's positions; null when a token gave several lexemes. */
  private partVector(ids: TokenIds): Map<number, number[]> | null {
    const vector = new Map<number, number[]>()
    let pos = 0
    let several = false
    const add = (id: number): void => {
      const lexeme = this.reduced[id]!
      if (lexeme === NO_POSITION) return
      if (lexeme === SEVERAL) several = true
      pos++
      if (lexeme < 0) return
      const at = Math.min(pos, MAX_POSITION)
      const positions = vector.get(lexeme)
      if (positions === undefined) vector.set(lexeme, [at])
      else {
        const last = positions[positions.length - 1]!
        if (positions.length < MAX_POSITIONS - 1 && last !== MAX_POSITION && last !== at) positions.push(at)
      }
    }
    for (const id of ids) {
      if (id >= 0) add(id)
      else for (const inner of this.groups[-id - 1]!) add(inner)
    }
    return several ? null : vector
  }

  /**
   * The lexeme part of brain_search_tiers (migration 0500) for a chunk's vector, as tsvector text:
   * each lexeme of at most 1,000 bytes whose position count tf reaches the second tier line
   * (3·tf ≥ 7·K, with K = 0.3 + 0.009·length as a double), marked 1~ when it reaches the first
   * (tf ≥ 4·K) and 2~ otherwise. The comparisons are the database's double arithmetic.
   */
  private tiersText(vector: Vector, length: number): string {
    const saturation = (300 + 9 * length) / 1000
    const entries: string[] = []
    for (const [lexeme, positions] of vector) {
      const tf = positions.length
      if (3 * tf < 7 * saturation) continue
      const text = this.lexemes[lexeme]!
      if (Buffer.byteLength(text, 'utf8') > 1000) continue
      entries.push(tsvectorLexeme(`${tf >= 4 * saturation ? '1' : '2'}~${text}`))
    }
    return entries.join(' ')
  }

  private vectorText(vector: Vector): string {
    const entries: string[] = []
    for (const [lexeme, positions] of vector) {
      let entry = this.quoted[lexeme]!
      for (let i = 0; i < positions.length; i++) entry += `${i === 0 ? '' : ','}${positions[i]! >> 2}${WEIGHT_LETTERS[positions[i]! & 3]}`
      entries.push(entry)
    }
    return entries.join(' ')
  }
}

/** A lexeme quoted as tsvector text writes it. */
function tsvectorLexeme(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/**
 * The slug part of brain_search_tiers as tsvector text: each '/'-terminated prefix of the slug of at
 * most 1,000 bytes, marked p~, so that a boosted folder's chunks are reached through the tiers.
 */
export function slugTiers(slug: string): string {
  const parts = slug.split('/')
  const entries: string[] = []
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join('/')
    if (Buffer.byteLength(prefix, 'utf8') <= 1000) entries.push(tsvectorLexeme(`p~${prefix}/`))
  }
  return entries.join(' ')
}

/** search_vector_length: every lexeme's positions counted. */
function vectorLength(vector: Vector): number {
  let n = 0
  for (const positions of vector.values()) n += Math.max(1, positions.length)
  return n
}

const analysers = new WeakMap<object, Map<string, Promise<InProcessAnalyser | null>>>()

/**
 * The analyser of the brain's current language, kept per database so that an import reduces each
 * distinct token once; null when that language's configuration is one this cannot follow.
 */
export async function inProcessAnalyser(db: SqlExecutor & object): Promise<InProcessAnalyser | null> {
  const { rows } = await db.query<{ config: string }>('SELECT brain_search_language()::text AS config')
  const config = rows[0]!.config
  let byConfig = analysers.get(db)
  if (byConfig === undefined) analysers.set(db, (byConfig = new Map()))
  let opened = byConfig.get(config)
  if (opened === undefined) {
    opened = InProcessAnalyser.open(db).catch(() => null)
    byConfig.set(config, opened)
  }
  const analyser = await opened
  return analyser?.config === config ? analyser : null
}
