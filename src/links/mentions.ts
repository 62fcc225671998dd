/**
 * Entities and their mentions, with no model. An entity is a page whose type is in the
 * configured list (`links.entity_types`); a plain-text mention of its title or an alias in
 * another markdown page (word-bounded, case-insensitive, outside links and code) is a derived
 * `mentions` link. A name shared by two entities, a name under three characters and a name on
 * the stop list (`links.mention_stoplist`) never link.
 */
import { readConfigValue } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { proseLines, splitFrontmatterLines } from '../util/index.js'
import { DEFAULT_ENTITY_TYPES, DEFAULT_MENTION_STOPLIST, nameWords, normalizeName } from './name-words.js'
import type { MarkdownPageRef } from './repository.js'

const MIN_NAME_LENGTH = 3
/** The longest name, in words, looked for. */
const MAX_NAME_WORDS = 6

interface MentionPlace {
  field: string
  line: number
  context: string
}

const TIMELINE_HEADING = /^#{1,3}[ \t]+timeline[ \t]*$/i

const CLAUSE_BREAK = /!?\[\[[^[\]\n]*\]\]|!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)|<https?:[^>\s]*>|https?:\/\/\S+|[,;:!?()"“”]|\.(?:\s|$)| {2,}/

/** What a page's phrases are looked for in: the first words of the names, and their most words. */
interface NameStarts {
  first: ReadonlySet<string>
  maxWords: number
}

const startsOfNames = new WeakMap<ReadonlyMap<string, number>, NameStarts>()

/** Phrases are only collected where a name could begin, so a page costs its words, not six phrases a word. */
function nameStarts(names: ReadonlyMap<string, number>): NameStarts {
  let starts = startsOfNames.get(names)
  if (starts) return starts
  const first = new Set<string>()
  let maxWords = 0
  for (const name of names.keys()) {
    const words = name.split(' ')
    first.add(words[0]!)
    maxWords = Math.max(maxWords, words.length)
  }
  starts = { first, maxWords: Math.min(maxWords, MAX_NAME_WORDS) }
  startsOfNames.set(names, starts)
  return starts
}

function addPhrases(out: Map<string, MentionPlace>, clause: string, place: MentionPlace, starts: NameStarts | null): void {
  const words = nameWords(clause)
  const most = starts?.maxWords ?? MAX_NAME_WORDS
  for (let i = 0; i < words.length; i++) {
    if (starts && !starts.first.has(words[i]!)) continue
    let phrase = ''
    for (let n = 0; n < most && i + n < words.length; n++) {
      phrase = n === 0 ? words[i]! : `${phrase} ${words[i + n]}`
      if (!out.has(phrase)) out.set(phrase, place)
    }
  }
}

/**
 * Every phrase of one to MAX_NAME_WORDS words in the prose of a markdown file (front matter, code
 * and links left out), each with where it first occurs. Phrases never run across lines. Given
 * `names`, only the phrases that could be one of them: those opening with a name's first word,
 * no longer than the longest name.
 */
export function mentionPhrases(content: string, names?: ReadonlyMap<string, number>): Map<string, MentionPlace> {
  const out = new Map<string, MentionPlace>()
  const starts = names ? nameStarts(names) : null
  const { bodyLine, body } = splitFrontmatterLines(content)
  let field = 'compiled_truth'
  for (const line of proseLines(body)) {
    if (TIMELINE_HEADING.test(line.text)) field = 'timeline'
    const place = { field, line: bodyLine + line.index + 1, context: line.raw.trim().slice(0, 160) }
    // A name never runs across a link, code, or punctuation that ends a clause.
    for (const clause of line.text.toLowerCase().split(CLAUSE_BREAK)) addPhrases(out, clause, place, starts)
  }
  return out
}

function listSetting(value: string | null, fallback: readonly string[]): string[] {
  if (value === null) return [...fallback]
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
}

export async function entityTypes(db: SqlExecutor): Promise<string[]> {
  return listSetting(await readConfigValue(db, 'links.entity_types'), DEFAULT_ENTITY_TYPES)
}

interface EntityRow {
  id: string
  title: string
  aliases: string[]
}

/**
 * The entity names of the last brain asked, with what they were read from: the settings and the
 * entity set's count, newest write and highest id. Reading that fingerprint is one index scan,
 * where reading every entity with its aliases on every page write made a bulk import slower the
 * more entities it had written.
 */
let cached: { fingerprint: string; names: Map<string, number> } | null = null

async function entityFingerprint(db: SqlExecutor, types: readonly string[], stoplist: string | null): Promise<string> {
  const { rows } = await db.query<{ n: number; newest: string | null; top: string | null }>(
    `SELECT count(*) AS n, max(updated_at)::text AS newest, max(id)::text AS top FROM pages
     WHERE lower(type) = ANY($1::text[]) AND page_kind = 'markdown'`,
    [types],
  )
  const row = rows[0]
  return JSON.stringify([types, stoplist, Number(row?.n ?? 0), row?.newest ?? null, row?.top ?? null])
}

/** Linkable names of every entity: each name of exactly one entity, long enough, not stopped. */
export async function entityNames(db: SqlExecutor): Promise<Map<string, number>> {
  const types = await entityTypes(db)
  const stoplist = await readConfigValue(db, 'links.mention_stoplist')
  const fingerprint = await entityFingerprint(db, types, stoplist)
  if (cached?.fingerprint === fingerprint) return cached.names
  const names = await readEntityNames(db, types, stoplist)
  cached = { fingerprint, names }
  return names
}

/**
 * The entity names as a page written right before page `pageId` would have seen them: those of
 * entities with a lower id. A bulk import writes several pages at once and asks this for the
 * pages after an entity page of the same batch; the entities are read once, the names per call.
 */
export async function entityNamesByPosition(db: SqlExecutor): Promise<(pageId: number) => Map<string, number>> {
  const types = await entityTypes(db)
  const stop = stopSet(await readConfigValue(db, 'links.mention_stoplist'))
  const entities = linkableNames(await readEntityRows(db, types), stop).sort((a, b) => a.id - b.id)
  // Pages come in id order: the names change only when an entity is passed, so the last set is kept.
  let last: { count: number; names: Map<string, number> } | null = null
  return (pageId) => {
    let count = 0
    while (count < entities.length && entities[count]!.id < pageId) count++
    if (last?.count !== count) last = { count, names: namesOf(entities.slice(0, count)) }
    return last.names
  }
}

async function readEntityNames(db: SqlExecutor, types: readonly string[], stoplist: string | null): Promise<Map<string, number>> {
  return namesOf(linkableNames(await readEntityRows(db, types), stopSet(stoplist)))
}

function stopSet(stoplist: string | null): Set<string> {
  return new Set(listSetting(stoplist, DEFAULT_MENTION_STOPLIST).map(normalizeName))
}

async function readEntityRows(db: SqlExecutor, types: readonly string[]): Promise<EntityRow[]> {
  const { rows } = await db.query<EntityRow>(
    `SELECT p.id, p.title, coalesce(array_agg(a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases
     FROM pages p LEFT JOIN page_aliases a ON a.page_id = p.id
     WHERE lower(p.type) = ANY($1::text[]) AND p.page_kind = 'markdown'
     GROUP BY p.id, p.title`,
    [types],
  )
  return rows
}

interface EntityNames {
  id: number
  /** Its linkable names, normalized: long enough, not stopped, not too many words. */
  names: string[]
}

function linkableNames(rows: readonly EntityRow[], stop: ReadonlySet<string>): EntityNames[] {
  return rows.map((row) => ({
    id: Number(row.id),
    names: [row.title, ...row.aliases].map(normalizeName).filter((name) => name.length >= MIN_NAME_LENGTH && !stop.has(name) && name.split(' ').length <= MAX_NAME_WORDS),
  }))
}

/** Each name of exactly one entity, with that entity. */
function namesOf(entities: readonly EntityNames[]): Map<string, number> {
  const owners = new Map<string, Set<number>>()
  for (const entity of entities) {
    for (const name of entity.names) {
      const set = owners.get(name) ?? new Set<number>()
      set.add(entity.id)
      owners.set(name, set)
    }
  }
  const names = new Map<string, number>()
  for (const [name, ids] of owners) if (ids.size === 1) names.set(name, [...ids][0]!)
  return names
}

/** The mentions a page makes: one per entity, at its first mention; never of the page itself. */
function matchMentions(phrases: ReadonlyMap<string, MentionPlace>, names: ReadonlyMap<string, number>, selfId: number): Map<number, MentionPlace> {
  const found = new Map<number, MentionPlace>()
  const small = phrases.size < names.size
  const pairs: Iterable<[string, unknown]> = small ? phrases : names
  for (const [name] of pairs) {
    const id = names.get(name)
    const place = phrases.get(name)
    if (id === undefined || place === undefined || id === selfId) continue
    const seen = found.get(id)
    if (!seen || place.line < seen.line) found.set(id, place)
  }
  return found
}

/** Replaces the mention links a page makes; returns how many it has and how many were written. */
interface MentionWriteOptions {
  isNewPage: boolean
  /** Count what would be added, write nothing. */
  dryRun?: boolean
  /** Keep the place (line, context) of mentions already stored: reconcile reads no file, so its lines are approximate. */
  keepPlaces?: boolean
}

export async function replaceMentionLinks(
  db: SqlExecutor,
  page: MarkdownPageRef,
  content: string,
  names: ReadonlyMap<string, number>,
  options: MentionWriteOptions,
): Promise<{ found: number; added: number }> {
  const mentions = names.size === 0 ? new Map<number, MentionPlace>() : matchMentions(mentionPhrases(content, names), names, page.id)
  const rows = [...mentions].map(([id, p]) => ({ id, field: p.field, line: p.line, context: p.context }))
  if (options.dryRun) {
    const { rows: missing } = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM jsonb_to_recordset($2::jsonb) AS x(id bigint)
       WHERE NOT EXISTS (SELECT 1 FROM links l WHERE l.from_page_id = $1 AND l.to_page_id = x.id AND l.link_type = 'mentions' AND l.target_text IS NULL)`,
      [page.id, JSON.stringify(rows)],
    )
    return { found: rows.length, added: Number(missing[0]!.n) }
  }
  if (!options.isNewPage) {
    await db.query(
      `DELETE FROM links WHERE from_page_id = $1 AND link_type = 'mentions' AND target_text IS NULL
         AND NOT (to_page_id = ANY($2::bigint[]))`,
      [page.id, rows.map((r) => String(r.id))],
    )
  }
  if (rows.length === 0) return { found: 0, added: 0 }
  const { rowCount } = await db.query(
    `INSERT INTO links (from_page_id, to_page_id, link_type, link_source, origin_page_id, origin_field, line, context)
     SELECT $1, x.id, 'mentions', 'mention', $3, x.field, x.line, x.context
     FROM jsonb_to_recordset($2::jsonb) AS x(id bigint, field text, line integer, context text)
     JOIN pages t ON t.id = x.id
     ON CONFLICT (from_page_id, to_page_id, link_type) WHERE target_text IS NULL DO ${
       options.keepPlaces
         ? 'NOTHING'
         : `UPDATE
       SET origin_field = EXCLUDED.origin_field, line = EXCLUDED.line, context = EXCLUDED.context
       WHERE (links.origin_field, links.line, links.context) IS DISTINCT FROM (EXCLUDED.origin_field, EXCLUDED.line, EXCLUDED.context)`
     }`,
    [page.id, JSON.stringify(rows), page.slug],
  )
  return { found: rows.length, added: rowCount }
}

export interface EntitySummary {
  slug: string
  sourceId: string
  title: string
  type: string
  aliases: string[]
  /** Pages mentioning it in plain text. */
  mentions: number
  /** Other links pointing at it (wikilinks, embeds, property links, …). */
  backlinks: number
}

/** Entities with their mention and backlink counts, most connected first. */
export async function listEntities(db: SqlExecutor, query: { type?: string; sourceId?: string; limit?: number; offset?: number } = {}): Promise<EntitySummary[]> {
  const { rows } = await db.query<{ slug: string; source_id: string; title: string; type: string; aliases: string[]; mentions: number; backlinks: number }>(
    `SELECT p.slug, p.source_id, p.title, p.type,
            coalesce((SELECT array_agg(a.alias ORDER BY a.alias) FROM page_aliases a WHERE a.page_id = p.id), '{}') AS aliases,
            (SELECT count(*) FROM links l WHERE l.to_page_id = p.id AND l.link_type = 'mentions') AS mentions,
            (SELECT count(*) FROM links l WHERE l.to_page_id = p.id AND l.link_type <> 'mentions' AND l.from_page_id <> p.id) AS backlinks
     FROM pages p
     WHERE lower(p.type) = ANY($1::text[]) AND p.page_kind = 'markdown'
       AND ($2::text IS NULL OR lower(p.type) = lower($2)) AND ($3::text IS NULL OR p.source_id = $3)
     ORDER BY 6 DESC, 7 DESC, p.slug, p.source_id LIMIT $4 OFFSET $5`,
    [await entityTypes(db), query.type ?? null, query.sourceId ?? null, query.limit ?? 100, query.offset ?? 0],
  )
  return rows.map((r) => ({ slug: r.slug, sourceId: r.source_id, title: r.title, type: r.type, aliases: r.aliases, mentions: Number(r.mentions), backlinks: Number(r.backlinks) }))
}
