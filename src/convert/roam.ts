/**
 * Roam Research's JSON export (`<graph>.json`, or the `Roam-Export-….zip` it comes in) → one page
 * per Roam page under `roam/<graph>/<title>`, titled as in Roam so that its `[[links]]` (daily
 * pages' `[[January 15th, 2024]]` included) resolve by title. Blocks become an outline; a block
 * with a heading opens a section; `{{[[TODO]]}}` and `{{[[DONE]]}}` are tasks; a block reference
 * `((uid))` or an embed of one shows the referenced block's text, so nothing reads as a bare ID.
 */
import { ConvertError } from './errors.js'
import { objects, parseJson, str, type JsonObject } from './json-values.js'
import { freeSlug, slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'
import { zipEntries } from './zip-read.js'

/** Deeper outlines than this are written at this depth, so a hostile file cannot nest forever. */
const MAX_DEPTH = 40
const BLOCK_REF = /\(\(([\w-]{1,64})\)\)/g
const EMBED = /\{\{\s*(?:\[\[)?embed(?:\]\])?\s*:\s*\(\(([\w-]{1,64})\)\)\s*\}\}/gi
const TASK = /^\{\{\s*(?:\[\[)?(TODO|DONE)(?:\]\])?\s*\}\}\s*/

/** Every block's text by its uid, for block references. */
function blockTexts(pages: readonly JsonObject[]): Map<string, string> {
  const texts = new Map<string, string>()
  const pending: JsonObject[] = pages.flatMap((p) => objects(p.children))
  while (pending.length > 0) {
    const block = pending.pop()!
    const uid = str(block.uid)
    if (uid !== undefined) texts.set(uid, str(block.string) ?? '')
    for (const child of objects(block.children)) pending.push(child)
  }
  return texts
}

/** Roam's markup as markdown: references read, `^^highlight^^` marked, `__italic__` as emphasis. */
function blockText(text: string, refs: ReadonlyMap<string, string>): string {
  const ref = (_m: string, uid: string): string => {
    const target = refs.get(uid)
    return target === undefined ? `((${uid}))` : target.replace(BLOCK_REF, '…').replace(/\s*\n\s*/g, ' ')
  }
  return text
    .replace(EMBED, ref)
    .replace(BLOCK_REF, ref)
    .replace(/\^\^([^^\n]+)\^\^/g, '==$1==')
    .replace(/(?<![\w_])__([^_\n]+)__(?![\w_])/g, '*$1*')
}

/** A page's blocks as markdown, depth first, without recursion. */
function outline(children: unknown, refs: ReadonlyMap<string, string>): string {
  const lines: string[] = []
  const stack = objects(children)
    .reverse()
    .map((block) => ({ block, depth: 0 }))
  while (stack.length > 0) {
    const { block, depth } = stack.pop()!
    const raw = str(block.string) ?? ''
    const heading = typeof block.heading === 'number' && block.heading >= 1 && block.heading <= 3 ? block.heading : 0
    const task = TASK.exec(raw)
    const text = blockText(task === null ? raw : raw.slice(task[0].length), refs)
    const indent = '  '.repeat(Math.min(depth, MAX_DEPTH))
    if (heading > 0 && depth === 0) lines.push('', `${'#'.repeat(heading + 1)} ${text.replace(/\s*\n\s*/g, ' ')}`, '')
    else if (text.trim() !== '' || task !== null) {
      const box = task === null ? '' : task[1] === 'DONE' ? '[x] ' : '[ ] '
      const [first, ...rest] = text.split('\n')
      lines.push(`${indent}- ${box}${first}`, ...rest.map((line) => `${indent}  ${line}`))
    }
    const inner = objects(block.children)
    for (let i = inner.length - 1; i >= 0; i--) stack.push({ block: inner[i]!, depth: heading > 0 && depth === 0 ? 0 : depth + 1 })
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const isoFromMillis = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 8.64e15 ? new Date(v).toISOString() : undefined)

/** A title as a slug path: Roam's namespaces (`Projects/Tide`) are folders. */
const titleSlug = (title: string): string =>
  title
    .split('/')
    .map((part) => slugWords(part, 60))
    .join('/')

function pageDraft(page: JsonObject, graph: string, refs: ReadonlyMap<string, string>, index: number): PageDraft | null {
  const title = str(page.title)?.trim()
  if (!title) return null
  const frontmatter: Record<string, unknown> = { type: 'note' }
  const created = isoFromMillis(page['create-time'])
  const updated = isoFromMillis(page['edit-time'])
  if (created !== undefined) frontmatter.created = created
  if (updated !== undefined) frontmatter.updated = updated
  const body = outline(page.children, refs)
  return { slugHint: `roam/${graph}/${titleSlug(title)}`, title, frontmatter, body: `# ${title}\n\n${body || '(empty page)'}\n`, position: { index } }
}

/** The export's JSON: the file itself, or the one `.json` file of the zip Roam downloads. */
function exportJson(input: ConvertInput): { pages: unknown; name: string } {
  if (!/\.zip$/i.test(input.name)) return { pages: parseJson(input.bytes, input.name), name: input.name }
  const entries = [...zipEntries(input.bytes, input.name)].filter(([entry]) => /\.json$/i.test(entry) && !entry.includes('__MACOSX'))
  if (entries.length !== 1) throw new ConvertError('convert_unsupported', `${input.name}: not a Roam Research JSON export (${entries.length} JSON files)`)
  const [entry, read] = entries[0]!
  return { pages: parseJson(read(), entry), name: entry }
}

export function convertRoam(input: ConvertInput, limits: ConvertLimits): ConvertResult<'roam'> {
  const { pages, name } = exportJson(input)
  const all = Array.isArray(pages) ? objects(pages) : []
  if (all.length === 0 || !all.every((p) => typeof p.title === 'string')) throw new ConvertError('convert_unsupported', `${input.name}: not a Roam Research JSON export`)
  if (all.length > limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: ${all.length} pages exceed ${limits.maxDrafts}`)
  const graph = slugWords(name.replace(/^.*\//, '').replace(/\.json$/i, ''), 60)
  const refs = blockTexts(all)
  const drafts: PageDraft[] = []
  const seen = new Set<string>()
  for (const [index, page] of all.entries()) {
    const draft = pageDraft(page, graph, refs, index)
    if (draft === null) continue
    // Titles that differ only in case or punctuation share a slug: the later ones are numbered.
    draft.slugHint = freeSlug(draft.slugHint, seen)
    drafts.push(draft)
  }
  return { format: 'roam', drafts, counts: { roam_pages: drafts.length, roam_blocks: refs.size } }
}
