/**
 * Explicit links in a note, as its author wrote them: wikilinks and embeds, markdown links to
 * local files (inline or reference-style), front-matter properties whose value is a wikilink, and
 * in an Org note Org's links. Pure: text in, link drafts out, each with the keys the database
 * resolves it by.
 */
import { isSinglePageDocumentName } from '../convert/index.js'
import { proseLines, splitFrontmatterLines } from '../util/index.js'

export type NoteLinkSource = 'wikilink' | 'markdown_link' | 'frontmatter' | 'org_link'

export interface NoteLinkDraft {
  /** links_to, embeds, or the front-matter property's name. */
  type: string
  source: NoteLinkSource
  /** The target as written, without its anchor ('' for a link into the same page). */
  targetText: string
  /** Lower-cased slug form of the target: vault-absolute for wikilinks, folder-relative for markdown links. */
  key: string
  /** The other reading of the path (relative for wikilinks, vault-absolute for markdown links), when it differs. */
  relKey: string | null
  shownText: string | null
  /** A heading (`Heading`) or block (`^id`) inside the target. */
  anchor: string | null
  /** compiled_truth, timeline or frontmatter. */
  field: string
  /** 1-based line in the file. */
  line: number
  context: string
}

const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g
/** What opens Logseq's page embed, `{{embed [[Page]]}}`, right before its wikilink. */
const LOGSEQ_EMBED = /\{\{\s*embed\s*$/i
/** An Org link: `[[target]]` or `[[target][description]]`. */
const ORG_LINK = /\[\[([^[\]\n]+)\](?:\[([^[\]\n]+)\])?\]/g
/** Org blocks whose lines are code or verbatim text, not prose. */
const ORG_BLOCK_START = /^[ \t]*#\+begin_(src|example|export)\b/i
const ORG_BLOCK_END = /^[ \t]*#\+end_(src|example|export)\b/i
/**
 * A markdown link. A `<…>` destination holds no `<`, as in CommonMark: each `<` read up to the
 * next `>` made a line of many `[a](<` cost its square.
 */
const MD_LINK = /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\(\s*(<[^<>\n]+>|[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g
/** A link reference definition (`[label]: path.md "Title"`); `[^1]:` is a footnote, not a link. */
const REFERENCE_DEFINITION = /^ {0,3}\[([^\]^\n][^\]\n]*)\]:[ \t]*(<[^>\n]+>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/
const TIMELINE_HEADING = /^#{1,3}[ \t]+timeline[ \t]*$/i
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i
const CONTEXT_CHARS = 160

/**
 * The slug form of a path, lower-cased and composed (NFC): what `markdownSlugForPath` makes of a
 * note's file name, and of a document the importer turns into one page (a PDF, an HTML file, a
 * .docx), whose slug drops its extension too, so `[[Q1 Report.pdf]]` finds `papers/q1-report`.
 * Every link of an import passes here, twice for most, so the common case skips what it can.
 */
export function slugKey(path: string): string {
  let key = NON_ASCII.test(path) ? path.normalize('NFC') : path
  if (key.includes('\\')) key = key.replace(/\\/g, '/')
  const extension = FILE_EXTENSION.exec(key)
  if (extension !== null && (MARKDOWN_EXTENSION.test(extension[0]) || isSinglePageDocumentName(key))) key = key.slice(0, extension.index)
  key = key.toLowerCase()
  if (WHITESPACE.test(key)) key = key.replace(/\s+/g, '-')
  if (key.includes('//')) key = key.replace(/\/+/g, '/')
  if (key.startsWith('/') || key.endsWith('/')) key = key.replace(/^\/+|\/+$/g, '')
  return key
}

const NON_ASCII = /[^\x00-\x7f]/
const FILE_EXTENSION = /\.[A-Za-z0-9]{1,8}$/
const MARKDOWN_EXTENSION = /^\.(md|markdown|mdx)$/i
const WHITESPACE = /\s/
/** A path segment joinPath must resolve or drop: `.`, `..`, or an empty one. */
const SPECIAL_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/

/** Joins a relative path to a folder, resolving `.` and `..` (never above the root). */
export function joinPath(folder: string, path: string): string {
  if (path !== '' && !SPECIAL_SEGMENT.test(path)) return folder === '' ? path : `${folder}/${path}`
  const parts = folder === '' ? [] : folder.split('/')
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') parts.pop()
    else parts.push(segment)
  }
  return parts.join('/')
}

function folderOf(slug: string): string {
  const at = slug.lastIndexOf('/')
  return at < 0 ? '' : slug.slice(0, at)
}

function splitAnchor(target: string): { path: string; anchor: string | null } {
  const at = target.indexOf('#')
  if (at < 0) return { path: target.trim(), anchor: null }
  const anchor = target.slice(at + 1).trim()
  return { path: target.slice(0, at).trim(), anchor: anchor === '' ? null : anchor }
}

function contextOf(raw: string, column: number): string {
  const line = raw.trim()
  if (line.length <= CONTEXT_CHARS) return line
  const offset = raw.length - raw.trimStart().length
  const start = Math.max(0, Math.min(column - offset - CONTEXT_CHARS / 2, line.length - CONTEXT_CHARS))
  return `${start > 0 ? '…' : ''}${line.slice(start, start + CONTEXT_CHARS)}${start + CONTEXT_CHARS < line.length ? '…' : ''}`
}

interface Place {
  field: string
  line: number
  raw: string
  column: number
}

/** One wikilink body (`Target#Anchor|shown`) at a place. */
function wikilink(inner: string, embed: boolean, type: string | null, slug: string, place: Place): NoteLinkDraft | null {
  const bar = inner.search(/\\?\|/)
  const target = bar < 0 ? inner : inner.slice(0, bar)
  const shown =
    bar < 0
      ? null
      : inner
          .slice(bar)
          .replace(/^\\?\|/, '')
          .trim() || null
  const { path, anchor } = splitAnchor(target)
  if (path === '' && anchor === null) return null
  const folder = folderOf(slug)
  let key: string
  let relKey: string | null = null
  if (path === '') key = slug.toLowerCase()
  else if (/^\.\.?\//.test(path)) key = slugKey(joinPath(folder, path))
  else {
    key = slugKey(path)
    const rel = folder === '' ? key : slugKey(joinPath(folder, path))
    relKey = rel !== key ? rel : null
  }
  if (key === '') return null
  return {
    type: type ?? (embed ? 'embeds' : 'links_to'),
    source: type ? 'frontmatter' : 'wikilink',
    targetText: path,
    key,
    relKey,
    shownText: shown,
    anchor,
    field: place.field,
    line: place.line,
    context: contextOf(place.raw, place.column),
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** One markdown link's destination, when it is a local file (or an anchor in this page). */
function markdownLink(destination: string, text: string, embed: boolean, slug: string, place: Place): NoteLinkDraft | null {
  const bare = destination.startsWith('<') ? destination.slice(1, -1) : destination
  if (EXTERNAL.test(bare)) return null
  const { path: encoded, anchor } = splitAnchor(bare.replace(/\?[^#]*/, ''))
  const path = decode(encoded)
  const folder = folderOf(slug)
  let key: string
  let relKey: string | null = null
  if (path === '') {
    if (anchor === null) return null
    key = slug.toLowerCase()
  } else if (path.startsWith('/')) key = slugKey(path)
  else {
    key = slugKey(joinPath(folder, path))
    const absolute = /^\.\.?\//.test(path) ? key : slugKey(path)
    relKey = absolute !== key ? absolute : null
  }
  if (key === '') return null
  return {
    type: embed ? 'embeds' : 'links_to',
    source: 'markdown_link',
    targetText: path,
    key,
    relKey,
    shownText: text.trim() || null,
    anchor: anchor === null ? null : decode(anchor),
    field: place.field,
    line: place.line,
    context: contextOf(place.raw, place.column),
  }
}

/**
 * A `file:` link's path and its search after `::` (a leading `*` dropped), as the pattern
 * `^file:(.+?)(?:::\*?(.*))?$` reads it: the path not empty, no line break anywhere. Read
 * without the pattern, which looked for the end of the line after every `::` and so cost the
 * square of a target of many `::` before a carriage return.
 */
function fileLink(target: string): { path: string; search: string | undefined } | null {
  if (!/^file:/i.test(target)) return null
  const rest = target.slice('file:'.length)
  if (rest === '' || /[\n\r\u2028\u2029]/.test(rest)) return null
  const at = rest.indexOf('::', 1)
  if (at < 0) return { path: rest, search: undefined }
  const search = rest.slice(at + 2)
  return { path: rest.slice(0, at), search: search.startsWith('*') ? search.slice(1) : search }
}

/**
 * One Org link, as org-roam writes them: `file:` a path relative to the file (`::` a search in
 * it), `id:` the ID another file declares (one of its aliases), any other scheme (`https:`,
 * `elisp:`, `shell:`) not a page and never followed; without a scheme, a name as a wikilink
 * names it, `*Heading` a heading of this file.
 */
function orgLink(target: string, description: string | undefined, slug: string, place: Place): NoteLinkDraft | null {
  const shown = description?.trim() ?? ''
  const file = fileLink(target)
  const draft = file
    ? markdownLink(file.search ? `${file.path}#${file.search}` : file.path, shown, false, slug, place)
    : /^id:/i.test(target)
      ? wikilink(target.slice(3).trim(), false, null, slug, place)
      : EXTERNAL.test(target)
        ? null
        : wikilink(`${target.replace(/^\*\s*/, '#')}${shown === '' ? '' : `|${shown}`}`, false, null, slug, place)
  return draft && { ...draft, source: 'org_link', shownText: shown || null }
}

/**
 * Links in the body: wikilinks first on each line, then markdown links, in reading order. A
 * reference-style link (`[text][ref]`) counts once, at the line that defines where `ref` goes.
 */
function bodyLinks(body: string, firstLine: number, slug: string, definitions: Set<NoteLinkDraft>): NoteLinkDraft[] {
  const out: NoteLinkDraft[] = []
  const org = /\.org$/i.test(slug)
  let inOrgBlock = false
  let field = 'compiled_truth'
  for (const line of proseLines(body)) {
    if (TIMELINE_HEADING.test(line.text)) field = 'timeline'
    if (org) {
      // A src or example block's lines are code or verbatim text.
      if (inOrgBlock || ORG_BLOCK_START.test(line.text)) {
        inOrgBlock = !ORG_BLOCK_END.test(line.text)
        continue
      }
      for (const m of line.text.includes('[[') ? line.text.matchAll(ORG_LINK) : []) {
        const link = orgLink(m[1]!, m[2], slug, { field, line: firstLine + line.index + 1, raw: line.raw, column: m.index })
        if (link) out.push(link)
      }
      continue
    }
    if (!line.text.includes('](') && !line.text.includes('[[')) {
      const definition = line.text.includes(']:') ? REFERENCE_DEFINITION.exec(line.text) : null
      const link = definition && markdownLink(definition[2]!, definition[1]!, false, slug, { field, line: firstLine + line.index + 1, raw: line.raw, column: 0 })
      if (link) {
        out.push(link)
        definitions.add(link)
      }
      continue
    }
    const found: Array<{ column: number; link: NoteLinkDraft | null }> = []
    const masked = line.text.includes('[[')
      ? line.text.replace(WIKILINK, (match, bang: string, inner: string, column: number) => {
          const embed = bang === '!' || LOGSEQ_EMBED.test(line.text.slice(Math.max(0, column - 12), column))
          found.push({ column, link: wikilink(inner, embed, null, slug, { field, line: firstLine + line.index + 1, raw: line.raw, column }) })
          return ' '.repeat(match.length)
        })
      : line.text
    for (const m of masked.includes('](') ? masked.matchAll(MD_LINK) : []) {
      const place = { field, line: firstLine + line.index + 1, raw: line.raw, column: m.index }
      found.push({ column: m.index, link: markdownLink(m[3]!, m[2]!, m[1] === '!', slug, place) })
    }
    found.sort((a, b) => a.column - b.column)
    for (const f of found) if (f.link) out.push(f.link)
  }
  return out
}

/** The line a property is written on; a `Key::` property line is read with its key lower-cased. */
function propertyLine(frontmatterLines: readonly string[], firstLine: number, key: string): number {
  let at = frontmatterLines.findIndex((l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`))
  if (at < 0) at = frontmatterLines.findIndex((l) => l.toLowerCase().startsWith(`${key}::`))
  return at < 0 ? 1 : at + firstLine
}

/** Front-matter properties whose value, or an item of whose list value, holds wikilinks. */
function propertyLinks(frontmatter: Record<string, unknown>, frontmatterLines: readonly string[], firstLine: number, slug: string): NoteLinkDraft[] {
  const out: NoteLinkDraft[] = []
  for (const [name, value] of Object.entries(frontmatter)) {
    const items = Array.isArray(value) ? value : [value]
    const line = propertyLine(frontmatterLines, firstLine, name)
    for (const item of items) {
      if (typeof item !== 'string' || !item.includes('[[')) continue
      for (const m of item.matchAll(WIKILINK)) {
        const link = wikilink(m[2]!, false, name, slug, { field: 'frontmatter', line, raw: `${name}: ${item}`, column: 0 })
        if (link) out.push(link)
      }
    }
  }
  return out
}

/**
 * The explicit links of a markdown file (front matter included) for the page at `slug`. A target
 * linked several times with the same type and anchor is kept once, at its first place.
 */
export function noteLinks(content: string, frontmatter: Record<string, unknown>, slug: string): NoteLinkDraft[] {
  if (!content.includes('[[') && !content.includes('](') && !content.includes(']:')) return []
  const { bodyLine, frontmatterLines, firstFrontmatterLine, body } = splitFrontmatterLines(content)
  const definitions = new Set<NoteLinkDraft>()
  const all = [...propertyLinks(frontmatter, frontmatterLines, firstFrontmatterLine, slug), ...bodyLinks(body, bodyLine, slug, definitions)]
  // Foam writes a definition under each wikilink's own text (`[note]: note.md`) so that other
  // markdown tools see the link too: that is the wikilink again, not a second link.
  const wikilinked = definitions.size === 0 ? null : new Set(all.filter((l) => l.source === 'wikilink').map((l) => l.targetText.toLowerCase()))
  const seen = new Set<string>()
  return all.filter((l) => {
    if (wikilinked !== null && definitions.has(l) && wikilinked.has((l.shownText ?? '').toLowerCase())) return false
    const id = `${l.type}\u0000${l.key}\u0000${l.anchor ?? ''}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}
