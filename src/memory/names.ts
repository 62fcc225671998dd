/**
 * The entity names of one source and how a conversation turn is matched against them. The table
 * is read once and kept until a cheap fingerprint of the source's entities changes, so a turn
 * costs one index scan, not a read of every entity with its aliases.
 */
import type { SqlExecutor } from '../db/index.js'
import { DEFAULT_ENTITY_TYPES, DEFAULT_MENTION_STOPLIST, capitalizedWords, nameWords, normalizeName } from '../links/name-words.js'

const MIN_NAME_LENGTH = 3
const MAX_NAME_WORDS = 6
/** A shorter word is no sign of a near miss: `co` begins too many words. */
const MIN_NEAR_MISS_STEM = 4

/** Where a name cannot run on: punctuation that ends a clause, or a full stop before a space. */
const CLAUSE_BREAK = /[,;:!?()[\]{}"“”<>|]|\.(?:\s|$)|\s[-–—]\s/

interface EntityRef {
  id: number
  slug: string
  sourceId: string
  title: string
  type: string
}

interface EntityEntry extends EntityRef {
  /** Words of its names that a longer word may merely begin with (`coppersmith` in `coppersmither`). */
  stems: Set<string>
}

/** A name of exactly one entity points at it; a shared name points at several and picks none. */
interface NameTable {
  names: Map<string, number[]>
  /**
   * A person's surname (the last word of a title of two or more words), used only where no
   * name matches, only written with a capital, and only when one person has it.
   */
  surnames: Map<string, number[]>
  entities: Map<number, EntityEntry>
  maxWords: number
}

function stopSet(value: string | null): Set<string> {
  const list =
    value === null
      ? [...DEFAULT_MENTION_STOPLIST]
      : value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
  return new Set(list.map(normalizeName))
}

interface EntityRow {
  id: string | number
  slug: string
  source_id: string
  title: string
  type: string
  aliases: string[]
}

function addOwner(map: Map<string, number[]>, name: string, id: number): void {
  const owners = map.get(name) ?? []
  if (!owners.includes(id)) owners.push(id)
  map.set(name, owners)
}

function buildTable(rows: readonly EntityRow[], stop: ReadonlySet<string>): NameTable {
  const names = new Map<string, number[]>()
  const surnames = new Map<string, number[]>()
  const entities = new Map<number, EntityEntry>()
  let maxWords = 1
  for (const row of rows) {
    const id = Number(row.id)
    const entry: EntityEntry = { id, slug: row.slug, sourceId: row.source_id, title: row.title, type: row.type, stems: new Set() }
    entities.set(id, entry)
    for (const raw of new Set([row.title, ...row.aliases].map(normalizeName))) {
      const count = raw.split(' ').length
      if (raw.length < MIN_NAME_LENGTH || stop.has(raw) || count > MAX_NAME_WORDS) continue
      for (const word of raw.split(' ')) if (word.length >= MIN_NEAR_MISS_STEM) entry.stems.add(word)
      addOwner(names, raw, id)
      maxWords = Math.max(maxWords, count)
    }
    const titleWords = normalizeName(row.title).split(' ')
    const surname = titleWords[titleWords.length - 1]!
    if (row.type.toLowerCase() === 'person' && titleWords.length >= 2 && surname.length >= MIN_NEAR_MISS_STEM && !stop.has(surname)) addOwner(surnames, surname, id)
  }
  // A surname that is also a name of some entity is that name.
  for (const name of names.keys()) surnames.delete(name)
  return { names, surnames, entities, maxWords }
}

const tables = new Map<string, { fingerprint: string; state: SourceState }>()

/**
 * The settings, and whether the cached table still holds: the newest page write, the highest
 * page id and the newest trashed page, each one probe of an index. Any write to the brain
 * rebuilds the table once; a turn with no write since costs this one query.
 */
const STATE_SQL = `SELECT (SELECT value FROM config WHERE key = 'links.entity_types') AS types,
    (SELECT value FROM config WHERE key = 'links.mention_stoplist') AS stoplist,
    (SELECT max(updated_at) FROM pages)::text AS newest,
    (SELECT max(id) FROM pages)::text AS top,
    (SELECT max(id) FROM page_trash)::text AS trashed,
    EXISTS (SELECT 1 FROM sources WHERE id = $1) AS known`

function listSetting(value: string | null | undefined, fallback: readonly string[]): string[] {
  if (value === null || value === undefined) return [...fallback]
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
}

interface SourceState {
  table: NameTable
  /** The source has code pages: only then is the code index asked. */
  hasCode: boolean
  /** The source is registered; recall refuses one that is not, as a page write does. */
  known: boolean
}

/**
 * The names of the entities of one source, rebuilt only when its entity set has changed; one
 * query when nothing has.
 */
export async function sourceState(db: SqlExecutor, sourceId: string): Promise<SourceState> {
  const { rows } = await db.query<{ types: string | null; stoplist: string | null; newest: string | null; top: string | null; trashed: string | null; known: boolean }>(STATE_SQL, [sourceId])
  const state = rows[0]!
  if (!state.known) return { table: buildTable([], new Set()), hasCode: false, known: false }
  const fingerprint = JSON.stringify([state.types, state.stoplist, state.newest, state.top, state.trashed])
  // The database's identity is part of the key: tests and a service may hold several brains.
  const key = `${identityOf(db)}\u0000${sourceId}`
  const cached = tables.get(key)
  if (cached?.fingerprint === fingerprint) return cached.state
  const types = listSetting(state.types, DEFAULT_ENTITY_TYPES)
  const { rows: entities } = await db.query<EntityRow>(
    `SELECT p.id, p.slug, p.source_id, p.title, p.type, coalesce(array_agg(a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases
     FROM pages p LEFT JOIN page_aliases a ON a.page_id = p.id
     WHERE lower(p.type) = ANY($1::text[]) AND p.page_kind = 'markdown' AND p.source_id = $2
     GROUP BY p.id, p.slug, p.source_id, p.title, p.type`,
    [types, sourceId],
  )
  const { rows: code } = await db.query<{ has_code: boolean }>(`SELECT EXISTS (SELECT 1 FROM pages WHERE page_kind = 'code' AND source_id = $1) AS has_code`, [sourceId])
  const built = { table: buildTable(entities, stopSet(state.stoplist)), hasCode: code[0]?.has_code === true, known: true }
  tables.set(key, { fingerprint, state: built })
  return built
}

const identities = new WeakMap<object, number>()
let nextIdentity = 1

function identityOf(db: SqlExecutor): number {
  let id = identities.get(db)
  if (id === undefined) {
    id = nextIdentity++
    identities.set(db, id)
  }
  return id
}

export interface EntityMatch {
  entity: EntityRef
  /** The words of the turn that named it, as written there. */
  named: string
  /** The page's own title, rather than an alias. */
  byTitle: boolean
  /** Order of first mention in the turn. */
  position: number
}

/**
 * The entities a text names: at each word the longest name that starts there wins and its words
 * are used up, so `Yuki Quincewood` picks one Yuki where `Yuki` alone, shared by two entities,
 * picks none. A name followed by a word that begins with one of the entity's own name words
 * (`Coppersmither` after `Mireille`) is a near miss of another name and picks nothing.
 */
export function matchEntities(text: string, table: NameTable): EntityMatch[] {
  const found = new Map<number, EntityMatch>()
  let position = 0
  for (const clause of text.split(CLAUSE_BREAK)) {
    const words = nameWords(clause)
    const capitals = capitalizedWords(clause)
    for (let i = 0; i < words.length;) {
      const hit = longestName(words, i, table) ?? surnameAt(words, capitals, i, table)
      if (!hit) {
        i++
        continue
      }
      const owners = hit.owners
      const next = words[i + hit.length]
      i += hit.length
      if (owners.length !== 1) continue
      const entity = table.entities.get(owners[0]!)!
      if (next !== undefined && nearMiss(next, entity.stems)) continue
      if (!found.has(entity.id)) {
        const { stems: _stems, ...ref } = entity
        found.set(entity.id, { entity: ref, named: hit.name, byTitle: normalizeName(entity.title) === hit.name, position: position++ })
      }
    }
  }
  return [...found.values()]
}

interface NameHit {
  name: string
  length: number
  owners: number[]
}

function longestName(words: readonly string[], start: number, table: NameTable): NameHit | null {
  const most = Math.min(table.maxWords, words.length - start)
  for (let n = most; n >= 1; n--) {
    const name = words.slice(start, start + n).join(' ')
    const owners = table.names.get(name)
    if (owners) return { name, length: n, owners }
  }
  return null
}

function surnameAt(words: readonly string[], capitals: readonly boolean[], at: number, table: NameTable): NameHit | null {
  const owners = capitals[at] ? table.surnames.get(words[at]!) : undefined
  return owners ? { name: words[at]!, length: 1, owners } : null
}

function nearMiss(word: string, stems: ReadonlySet<string>): boolean {
  for (const stem of stems) if (word !== stem && word.startsWith(stem)) return true
  return false
}
