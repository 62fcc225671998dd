/**
 * The entity names of one source and how a conversation turn is matched against them. The table
 * is read once and kept until a cheap fingerprint of the source's entities changes, so a turn
 * costs one index scan, not a read of every entity with its aliases.
 */
import { readConfigValue } from '../config/db-config.js'
import type { SqlExecutor } from '../db/types.js'
import { DEFAULT_MENTION_STOPLIST, entityTypes } from '../links/index.js'

const MIN_NAME_LENGTH = 3
const MAX_NAME_WORDS = 6
/** A shorter word is no sign of a near miss: `co` begins too many words. */
const MIN_NEAR_MISS_STEM = 4

/** A word as names are compared: letters and digits, a possessive `'s` dropped. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu
/** Where a name cannot run on: punctuation that ends a clause, or a full stop before a space. */
const CLAUSE_BREAK = /[,;:!?()[\]{}"“”<>|]|\.(?:\s|$)|\s[-–—]\s/

export interface EntityRef {
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
export interface NameTable {
  names: Map<string, number[]>
  entities: Map<number, EntityEntry>
  maxWords: number
}

function wordsOf(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/['’]s$/u, ''))
}

/** A name as compared: lower-cased words (hyphens, dots and underscores split them) joined by one space. */
export function normalizeName(name: string): string {
  return wordsOf(name).join(' ')
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

function buildTable(rows: readonly EntityRow[], stop: ReadonlySet<string>): NameTable {
  const names = new Map<string, number[]>()
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
      const owners = names.get(raw) ?? []
      owners.push(id)
      names.set(raw, owners)
      maxWords = Math.max(maxWords, count)
    }
  }
  return { names, entities, maxWords }
}

const tables = new Map<string, { fingerprint: string; table: NameTable }>()

/** The names of the entities of one source, rebuilt only when its entity set has changed. */
export async function entityNameTable(db: SqlExecutor, sourceId: string): Promise<NameTable> {
  const types = await entityTypes(db)
  const stoplist = await readConfigValue(db, 'links.mention_stoplist')
  const { rows } = await db.query<{ n: number; newest: string | null; top: string | null }>(
    `SELECT count(*) AS n, max(updated_at)::text AS newest, max(id)::text AS top FROM pages
     WHERE lower(type) = ANY($1::text[]) AND page_kind = 'markdown' AND source_id = $2`,
    [types, sourceId],
  )
  // The database's identity is part of the key: tests and a service may hold several brains.
  const fingerprint = JSON.stringify([types, stoplist, Number(rows[0]?.n ?? 0), rows[0]?.newest ?? null, rows[0]?.top ?? null])
  const key = `${identityOf(db)}\u0000${sourceId}`
  const cached = tables.get(key)
  if (cached?.fingerprint === fingerprint) return cached.table
  const { rows: entities } = await db.query<EntityRow>(
    `SELECT p.id, p.slug, p.source_id, p.title, p.type, coalesce(array_agg(a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases
     FROM pages p LEFT JOIN page_aliases a ON a.page_id = p.id
     WHERE lower(p.type) = ANY($1::text[]) AND p.page_kind = 'markdown' AND p.source_id = $2
     GROUP BY p.id, p.slug, p.source_id, p.title, p.type`,
    [types, sourceId],
  )
  const table = buildTable(entities, stopSet(stoplist))
  tables.set(key, { fingerprint, table })
  return table
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
    const words = wordsOf(clause)
    for (let i = 0; i < words.length;) {
      const hit = longestName(words, i, table)
      if (!hit) {
        i++
        continue
      }
      const owners = table.names.get(hit.name)!
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

function longestName(words: readonly string[], start: number, table: NameTable): { name: string; length: number } | null {
  const most = Math.min(table.maxWords, words.length - start)
  for (let n = most; n >= 1; n--) {
    const name = words.slice(start, start + n).join(' ')
    if (table.names.has(name)) return { name, length: n }
  }
  return null
}

function nearMiss(word: string, stems: ReadonlySet<string>): boolean {
  for (const stem of stems) if (word !== stem && word.startsWith(stem)) return true
  return false
}
