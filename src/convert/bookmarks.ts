/**
 * Browser bookmarks exported as a Netscape bookmark file (`bookmarks.html` from Chrome, Firefox,
 * Safari and Edge, and the same format from Pinboard and Raindrop) → one page of type
 * `bookmarks`: each folder a heading at its depth, each bookmark a link with the day it was
 * added, its tags and its description. The file is read tag by tag as text: nothing in it is
 * rendered, run or fetched, and only web addresses become links (a bookmarklet keeps its name).
 */
import { BOOKMARK_DOCTYPE } from './registry/sniff.js'
import { ConvertError } from './errors.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { decodeXmlText } from './xml-text.js'

/**
 * A tag and its attributes. Nothing in it holds `<`, so a tag never closed is read only up to the
 * next one: a file of many cost the square of its length when each was read to the end.
 */
const TAG = /<(\/?)(dl|h3|a|dd)\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*?)>/gi
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

function attributes(raw: string): Map<string, string> {
  return new Map(Array.from(raw.matchAll(ATTRIBUTE), (m) => [m[1]!.toLowerCase(), decodeXmlText(m[2] ?? m[3] ?? '')]))
}

/** Longer than any description a bookmark is given. */
const MAX_DESCRIPTION_CHARS = 64 * 1024

/** Text between a tag and the next `<`, entities read and spaces collapsed. */
function textAfter(html: string, from: number): string {
  const end = html.indexOf('<', from)
  return decodeXmlText(html.slice(from, Math.min(end < 0 ? html.length : end, from + MAX_DESCRIPTION_CHARS)))
    .replace(/\s+/g, ' ')
    .trim()
}

/** Markdown's link brackets in a title stay text. */
const escapeTitle = (s: string): string => s.replace(/([[\]\\])/g, '\\$1')

function day(seconds: string | undefined): string | undefined {
  const n = Number(seconds)
  // Some browsers write microseconds; a day from either reads the same.
  const ms = n > 1e14 ? n / 1000 : n * 1000
  return Number.isFinite(n) && n > 0 && ms < 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : undefined
}

function bookmarkLine(attrs: Map<string, string>, title: string): string {
  const url = attrs.get('href') ?? ''
  const shown = escapeTitle(title || url || 'untitled')
  const link = /^https?:\/\/\S+$/i.test(url) ? `[${shown}](${/[()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url})` : shown
  const added = day(attrs.get('add_date'))
  const tags = (attrs.get('tags') ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
  return [`- ${link}`, added, tags.length > 0 ? `tags: ${tags.join(', ')}` : undefined].filter((p) => p !== undefined).join(' · ')
}

/** Folders deeper than this keep their bookmarks in the folder above, so nesting stays bounded. */
const MAX_DEPTH = 50

interface Folder {
  title: string
  bookmarks: string[]
  folders: Folder[]
}

/**
 * The text of an element: up to the next tag read, when that is its closing tag (the file's titles
 * hold no tag of their own); empty when the element is never closed. Tags inside are dropped up to
 * the last `>` only, so a run of `<` is read once.
 */
function innerText(html: string, from: number, next: RegExpMatchArray | undefined, tag: string): string {
  if (next === undefined || next[1] !== '/' || next[2]!.toLowerCase() !== tag) return ''
  const inner = html.slice(from, next.index)
  const last = inner.lastIndexOf('>') + 1
  return decodeXmlText(inner.slice(0, last).replace(/<[^>]*>/g, '') + inner.slice(last))
    .replace(/\s+/g, ' ')
    .trim()
}

/** A folder's own bookmarks, then each folder inside it one heading level down. */
function render(folder: Folder, level: number, out: string[]): void {
  if (level > 1) out.push(`${'#'.repeat(Math.min(6, level))} ${folder.title || 'Untitled folder'}`)
  if (folder.bookmarks.length > 0) out.push(folder.bookmarks.join('\n'))
  for (const inner of folder.folders) render(inner, level + 1, out)
}

export function convertBookmarks(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'bookmarks'> {
  const html = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes).replace(/^\ufeff/, '')
  if (!BOOKMARK_DOCTYPE.test(html)) throw new ConvertError('convert_unsupported', `${input.name}: not a Netscape bookmark file`)
  const root: Folder = { title: '', bookmarks: [], folders: [] }
  // The open folders with the list depth each opened at; a folder named by <H3> opens with the next <DL>.
  const open: Array<{ folder: Folder; list: number }> = [{ folder: root, list: 0 }]
  let named: Folder | null = null
  let lists = 0
  let bookmarks = 0
  let folders = 0
  const tags = [...html.matchAll(TAG)]
  for (const [k, m] of tags.entries()) {
    const [whole, closing, name, raw] = m
    const tag = name!.toLowerCase()
    const after = m.index! + whole.length
    const current = open[open.length - 1]!
    if (tag === 'dl' && closing === '') {
      lists++
      if (named !== null) open.push({ folder: named, list: lists })
      named = null
    } else if (tag === 'dl') {
      if (current.list === lists && open.length > 1) open.pop()
      lists = Math.max(0, lists - 1)
    } else if (closing === '/') continue
    else if (tag === 'h3' && open.length < MAX_DEPTH) {
      named = { title: innerText(html, after, tags[k + 1], 'h3'), bookmarks: [], folders: [] }
      current.folder.folders.push(named)
      folders++
    } else if (tag === 'a') {
      current.folder.bookmarks.push(bookmarkLine(attributes(raw!), innerText(html, after, tags[k + 1], 'a')))
      bookmarks++
    } else if (tag === 'dd' && current.folder.bookmarks.length > 0) {
      const description = textAfter(html, after)
      if (description !== '') current.folder.bookmarks[current.folder.bookmarks.length - 1] += `\n  ${description}`
    }
  }
  if (bookmarks === 0) throw new ConvertError('convert_unsupported', `${input.name}: a bookmark file with no bookmarks`)
  const title = input.name.replace(/^.*\//, '').replace(/\.html?$/i, '') || 'Bookmarks'
  const parts: string[] = [`# ${title}`]
  render(root, 1, parts)
  return {
    format: 'bookmarks',
    drafts: [{ slugHint: title.toLowerCase(), title, frontmatter: { type: 'bookmarks', bookmarks }, body: `${parts.join('\n\n')}\n` }],
    counts: { bookmarks, bookmark_folders: folders },
  }
}
