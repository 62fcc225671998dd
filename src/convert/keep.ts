/**
 * Google Keep notes from a Google Takeout export (`Takeout/Keep/<note>.json`) → one page per
 * note at its file's path: its text, its list as task items, its labels as tags, the links Keep
 * attached, and when it was made and last edited. A note in Keep's trash is not imported. Takeout
 * writes each note twice, as JSON and as HTML; the JSON is read and the HTML left alone.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

function isoFromMicros(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(Math.floor(v / 1000)).toISOString() : undefined
}

/** A note's title: its own, else its first line of text, else the file's name. */
function titleOf(note: JsonObject, name: string): string {
  const own = str(note.title)?.trim()
  if (own) return own
  const firstItem = objects(note.listContent).map((i) => str(i.text) ?? '')[0]
  const first = (str(note.textContent) ?? firstItem ?? '').split('\n', 1)[0]!.trim()
  if (first !== '') return first.length > 80 ? `${first.slice(0, 79)}…` : first
  return name.slice(name.lastIndexOf('/') + 1).replace(/\.json$/i, '')
}

export function convertKeep(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'keep'> {
  if (/\.html$/i.test(input.name)) throw new ConvertError('convert_copy', `${input.name}: the HTML copy of a Keep note, read from its JSON`)
  const note = parseJson(input.bytes, input.name)
  if (!isObj(note) || !('textContent' in note || 'listContent' in note) || !('userEditedTimestampUsec' in note || 'createdTimestampUsec' in note)) {
    throw new ConvertError('convert_unsupported', `${input.name}: not a Google Keep note`)
  }
  if (note.isTrashed === true) throw new ConvertError('convert_trashed', `${input.name}: the note is in Keep's trash`)
  const title = titleOf(note, input.name)
  const parts: string[] = []
  const text = str(note.textContent)?.trim()
  if (text) parts.push(text)
  const items = objects(note.listContent).map((i) => `- [${i.isChecked === true ? 'x' : ' '}] ${(str(i.text) ?? '').replace(/\n/g, ' ')}`)
  if (items.length > 0) parts.push(items.join('\n'))
  const links = objects(note.annotations)
    .filter((a) => /^https?:/i.test(str(a.url) ?? ''))
    .map((a) => `- [${(str(a.title) ?? '').trim() || str(a.url)}](${str(a.url)})`)
  if (links.length > 0) parts.push(links.join('\n'))
  const attachments = objects(note.attachments).map((a) => `(attached: ${str(a.filePath) ?? str(a.mimetype) ?? 'a file'})`)
  if (attachments.length > 0) parts.push(attachments.join('\n'))
  const frontmatter: Record<string, unknown> = { type: 'note' }
  const created = isoFromMicros(note.createdTimestampUsec)
  const updated = isoFromMicros(note.userEditedTimestampUsec)
  if (created !== undefined) frontmatter.created = created
  if (updated !== undefined) frontmatter.updated = updated
  const labels = objects(note.labels)
    .map((l) => str(l.name)?.trim() ?? '')
    .filter((l) => l !== '')
  if (labels.length > 0) frontmatter.tags = labels
  if (note.isPinned === true) frontmatter.pinned = true
  if (note.isArchived === true) frontmatter.archived = true
  return {
    format: 'keep',
    drafts: [{ slugHint: title.toLowerCase(), title, frontmatter, body: `# ${title}\n\n${parts.join('\n\n')}\n` }],
    counts: { notes: 1 },
  }
}
