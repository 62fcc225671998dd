/**
 * Evernote exports (`.enex`, one notebook per file) → one page per note under
 * `evernote/<notebook>/`: the title, the note's HTML content (ENML) as markdown, its tags as page
 * tags, and when it was made and changed. Checkboxes become task items (`- [x]`); an attached
 * file is named where it sat but not imported (its bytes are in the export as base64). The
 * export is machine-written XML, read note by note without a DTD, so nothing in it is fetched or
 * expanded.
 */
import { ConvertError } from './errors.js'
import { htmlToMarkdown } from './html.js'
import { slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'
import { decodeXmlText } from './xml-text.js'

const NOTE = /<note>([\s\S]*?)<\/note>/g

/** Text of an XML element: CDATA as written, else with the five XML entities and character references read. */
function xmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw)
  return cdata ? cdata[1]! : decodeXmlText(raw)
}

/** Every element `<name>` directly in `xml`, as text (a note's resources are cut out first). */
function elements(xml: string, name: string): string[] {
  return Array.from(xml.matchAll(new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g')), (m) => xmlText(m[1]!).trim())
}

/** Evernote's `20240115T103000Z` as ISO 8601. */
function isoTime(value: string | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '')
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : undefined
}

/** Checkboxes pass the markdown writer as private-use characters, which it does not escape. */
const DONE = '\uE000'
const TODO = '\uE001'

/** A line that opens with a checkbox is a task list item; a checkbox elsewhere stays a box. */
function checkboxes(markdown: string): string {
  return markdown
    .replace(/^([ \t]*)([\uE000\uE001])[ \t]*/gm, (_m, indent: string, box: string) => `${indent}- ${box === DONE ? '[x]' : '[ ]'} `)
    .replace(/[\uE000\uE001]/g, (box) => (box === DONE ? '[x] ' : '[ ] '))
}

/** ENML's own elements as HTML that the markdown writer knows. */
function enmlToHtml(enml: string): string {
  return enml
    .replace(/<\?xml[^>]*\?>|<!DOCTYPE[^>]*>/gi, '')
    .replace(/<en-todo\b[^>]*\bchecked="true"[^>]*\/?>(?:<\/en-todo>)?/gi, DONE)
    .replace(/<en-todo\b[^>]*\/?>(?:<\/en-todo>)?/gi, TODO)
    .replace(/<en-media\b[^>]*\btype="([^"]*)"[^>]*\/?>(?:<\/en-media>)?/gi, (_m, type: string) => ` (attached: ${type}) `)
    .replace(/<en-crypt\b[\s\S]*?<\/en-crypt>/gi, ' (encrypted text) ')
    .replace(/<\/?en-note\b[^>]*>/gi, '')
}

function noteDraft(xml: string, notebook: string, index: number): PageDraft | null {
  const content = elements(xml.replace(/<resource>[\s\S]*?<\/resource>/g, ''), 'content')[0] ?? ''
  // The note's own fields, read with its content and attached files cut out.
  const withoutResources = xml.replace(/<resource>[\s\S]*?<\/resource>|<content>[\s\S]*?<\/content>/g, '')
  const title = elements(withoutResources, 'title')[0] || '(untitled)'
  const body = content === '' ? '' : checkboxes(htmlToMarkdown(enmlToHtml(content)))
  const tags = elements(withoutResources, 'tag').filter((tag) => tag !== '')
  const frontmatter: Record<string, unknown> = { type: 'note' }
  const created = isoTime(elements(withoutResources, 'created')[0])
  const updated = isoTime(elements(withoutResources, 'updated')[0])
  if (created) frontmatter.created = created
  if (updated) frontmatter.updated = updated
  if (tags.length > 0) frontmatter.tags = tags
  const sourceUrl = elements(withoutResources, 'source-url')[0]
  if (sourceUrl) frontmatter.source_url = sourceUrl
  const author = elements(withoutResources, 'author')[0]
  if (author) frontmatter.author = author
  if (body === '' && title === '(untitled)') return null
  // The day a note was made names it beside its title: an export has no stable note ID, and a
  // slug that depended on which other notes share the title would move when one is deleted.
  const day = created ? `-${created.slice(0, 10)}` : ''
  return { slugHint: `evernote/${notebook}/${slugWords(title, 60)}${day}`, title, frontmatter, body: `# ${title}\n\n${body || '(empty note)'}\n`, position: { index } }
}

export function convertEnex(input: ConvertInput, limits: ConvertLimits): ConvertResult<'enex'> {
  const xml = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  if (!/<en-export\b/.test(xml.slice(0, 4096))) throw new ConvertError('convert_unsupported', `${input.name}: not an Evernote export (no <en-export>)`)
  const notebook = slugWords(input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.enex$/i, ''), 60)
  const drafts: PageDraft[] = []
  const seen = new Set<string>()
  let index = 0
  for (const m of xml.matchAll(NOTE)) {
    const draft = noteDraft(m[1]!, notebook, index++)
    if (draft === null) continue
    if (drafts.length >= limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: more than ${limits.maxDrafts} notes`)
    // Two notes of one title made the same day: the later ones by the time of day, else by count.
    const base = draft.slugHint
    const timeOfDay = String(draft.frontmatter.created ?? '')
      .slice(11, 19)
      .replace(/:/g, '')
    if (seen.has(base)) draft.slugHint = `${base}-${timeOfDay || 2}`
    for (let n = 2; seen.has(draft.slugHint); n++) draft.slugHint = `${base}-${n}`
    seen.add(draft.slugHint)
    drafts.push(draft)
  }
  if (drafts.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: the export holds no notes`)
  return { format: 'enex', drafts, counts: { notes: drafts.length } }
}
