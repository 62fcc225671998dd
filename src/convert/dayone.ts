/**
 * Day One journals exported as JSON (`Journal.json`, one file per journal, the way the app's
 * "Export → JSON" writes it) → one page per entry under `dayone/<journal>/<day>-<title>`: its
 * text as Day One wrote it in markdown, its photos and other media named where they sat, and
 * when and where it was written, with its tags, in its front matter.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import { freeSlug, slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'

/** Day One writes its media into the text: a photo as `![](dayone-moment://<id>)`, others as `dayone-moment:/audio/<id>`. */
const MOMENT = /!\[[^\]\n]{0,200}\]\(dayone-moment:(?:\/\/|\/(audio|video|pdfAttachment)\/)[\w-]{1,64}\)/g
/** How much of an entry's first line names it. */
const TITLE_LENGTH = 80

function momentLabel(kind: string | undefined): string {
  if (kind === 'audio') return '(audio)'
  if (kind === 'pdfAttachment') return '(attached PDF)'
  if (kind === 'video') return '(video)'
  return '(photo)'
}

/** The entry's name: its first line without markdown's heading marks, else its day. */
function titleOf(text: string, day: string): string {
  const first = text.split('\n').find((line) => line.trim() !== '') ?? ''
  const plain = first
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(MOMENT, '')
    .trim()
  if (plain === '') return day
  return plain.length > TITLE_LENGTH ? `${plain.slice(0, TITLE_LENGTH - 1)}…` : plain
}

function placeOf(location: unknown): string | undefined {
  if (!isObj(location)) return undefined
  const parts = [str(location.placeName), str(location.localityName), str(location.administrativeArea), str(location.country)].filter((p): p is string => p !== undefined && p.trim() !== '')
  const unique = parts.filter((p, i) => parts.indexOf(p) === i)
  return unique.length === 0 ? undefined : unique.join(', ')
}

function entryDraft(entry: JsonObject, journal: string, index: number): PageDraft | null {
  const created = str(entry.creationDate)
  const text = (str(entry.text) ?? '').replace(MOMENT, (_m, kind: string | undefined) => momentLabel(kind)).trim()
  if (created === undefined || Number.isNaN(Date.parse(created))) return null
  const day = new Date(Date.parse(created)).toISOString().slice(0, 10)
  const title = titleOf(str(entry.text) ?? '', day)
  const frontmatter: Record<string, unknown> = { type: 'journal', created }
  const modified = str(entry.modifiedDate)
  if (modified !== undefined) frontmatter.updated = modified
  const tags = (Array.isArray(entry.tags) ? entry.tags : []).filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '')
  if (tags.length > 0) frontmatter.tags = tags
  const place = placeOf(entry.location)
  if (place !== undefined) frontmatter.place = place
  if (entry.starred === true) frontmatter.starred = true
  if (str(entry.timeZone) !== undefined) frontmatter.time_zone = str(entry.timeZone)
  const uuid = str(entry.uuid)
  if (uuid !== undefined) frontmatter.dayone_id = uuid
  // The body keeps a first line that is a heading; otherwise the title leads it.
  const body = /^\s*#\s/.test(text) ? text : `# ${title}\n\n${text}`
  return { slugHint: `dayone/${journal}/${day}-${slugWords(title === day ? 'entry' : title, 60)}`, title, frontmatter, body: `${body.trim()}\n`, position: { index } }
}

export function convertDayOne(input: ConvertInput, limits: ConvertLimits): ConvertResult<'dayone'> {
  const doc = parseJson(input.bytes, input.name)
  if (!isObj(doc) || !Array.isArray(doc.entries)) throw new ConvertError('convert_unsupported', `${input.name}: not a Day One JSON export`)
  const entries = objects(doc.entries)
  if (entries.length > limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: ${entries.length} entries exceed ${limits.maxDrafts}`)
  const journal = slugWords(input.name.replace(/^.*\//, '').replace(/\.json$/i, ''), 60)
  const drafts: PageDraft[] = []
  const seen = new Set<string>()
  for (const [index, entry] of entries.entries()) {
    const draft = entryDraft(entry, journal, index)
    if (draft === null) continue
    // Two entries of one day and title: the later ones numbered, in the export's order.
    draft.slugHint = freeSlug(draft.slugHint, seen)
    drafts.push(draft)
  }
  if (drafts.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: the journal holds no entries`)
  return { format: 'dayone', drafts, counts: { journal_entries: drafts.length } }
}
