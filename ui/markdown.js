// Markdown rendered as DOM nodes: headings, paragraphs, lists, quotes, tables, fenced code (with
// a small highlighter), wikilinks and local links that open pages. Page text is only ever
// textContent; only http(s) and mailto links leave the app.

import { el, pageHref } from './dom.js'

/** Wikilink targets, lowercased, to the slugs the brain resolved them to. @typedef {Map<string, string>} Resolved */

// Emphasis as Obsidian and CommonMark write it: `**` and `__` strong, `*` and `_` emphasis (`_`
// only between non-word characters, so snake_case stays text), `~~` struck, `==` marked; a
// backslash before punctuation shows the punctuation; `%%comments%%` are not shown.
const INLINE =
  /(\\[!-/:-@[-`{-~])|(`[^`]+`)|(!?\[\[[^[\]]+\]\])|(\[[^[\]]+\]\([^)\s[]+\))|(\*\*[^*]+\*\*|(?<!\w)__[^_\s](?:[^_]*[^_\s])?__(?!\w))|(\*[^*\s][^*]*\*|(?<!\w)_[^_\s](?:[^_]*[^_\s])?_(?!\w))|(~~[^~\s](?:[^~]*[^~\s])?~~)|(==[^=\s](?:[^=]*[^=\s])?==)|(https?:\/\/[^\s)<>]+)|(%%(?:[^%]|%(?!%))*%%)/g

/** @param {string} url */
function safeHref(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null
}

/**
 * @param {string} url
 * @param {string} fromSlug
 */
function localTarget(url, fromSlug) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) return null
  let path
  try {
    path = decodeURIComponent(url.split('#')[0]).replace(/\.md$/i, '')
  } catch {
    return null
  }
  if (path === '') return null
  const base = fromSlug.includes('/') ? fromSlug.slice(0, fromSlug.lastIndexOf('/') + 1) : ''
  const parts = []
  for (const part of (path.startsWith('/') ? path.slice(1) : base + path).split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

/**
 * A wikilink opens the page the brain resolved it to when known, else its target text.
 * @param {string} text
 * @param {string} slug
 * @param {Resolved} [resolved]
 */
export function inline(text, slug, resolved = new Map()) {
  const nodes = []
  let last = 0
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) nodes.push(text.slice(last, match.index))
    const [token, escaped, code, wiki, link, bold, em, struck, marked, bare, comment] = match
    if (escaped) nodes.push(escaped.slice(1))
    else if (code) nodes.push(el('code', { text: code.slice(1, -1) }))
    else if (wiki) {
      const inner = wiki.replace(/^!?\[\[|\]\]$/g, '')
      const [target, shown] = inner.split('|')
      const page = target.split('#')[0].trim()
      const to = resolved.get(page.toLowerCase()) ?? page
      nodes.push(page ? el('a', { href: pageHref(to), class: 'wikilink', text: (shown ?? target).trim() }) : (shown ?? target))
    } else if (link) {
      // INLINE matched this very shape, so the match is there.
      const [, label, url] = /** @type {RegExpExecArray} */ (/^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link))
      const external = safeHref(url)
      const local = external ? null : localTarget(url, slug)
      if (external) nodes.push(el('a', { href: external, rel: 'noopener noreferrer', target: '_blank', text: label }))
      else if (local) nodes.push(el('a', { href: pageHref(local), text: label }))
      else nodes.push(label)
    } else if (bold) nodes.push(el('strong', { text: bold.slice(2, -2) }))
    else if (em) nodes.push(el('em', { text: em.slice(1, -1) }))
    else if (struck) nodes.push(el('del', { text: struck.slice(2, -2) }))
    else if (marked) nodes.push(el('mark', { text: marked.slice(2, -2) }))
    else if (bare) nodes.push(el('a', { href: bare, rel: 'noopener noreferrer', target: '_blank', text: bare }))
    else if (comment) {
      // An Obsidian comment is for the author's eyes in the editor, not the reading view.
    } else nodes.push(token)
    last = match.index + token.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

const ORG_LINK = /\[\[([^[\]\n]+)\](?:\[([^[\]\n]+)\])?\]/g

/**
 * A plain-text note as written. In an Org note, a link the brain resolved (`[[id:…][Emacs]]`,
 * `[[file:x.org][x]]`) opens its page and shows its description, as Org shows it; every other
 * character stays text.
 * @param {string} text
 * @param {string} slug
 * @param {Resolved} [resolved]
 */
export function plainText(text, slug, resolved = new Map()) {
  if (!/\.org$/i.test(slug)) return [text]
  const nodes = []
  let last = 0
  for (const match of text.matchAll(ORG_LINK)) {
    const [token, target, description] = match
    const key = target
      .replace(/^(id|file):/i, '')
      .split('::')[0]
      .trim()
      .toLowerCase()
    const to = resolved.get(key)
    if (!to) continue
    if (match.index > last) nodes.push(text.slice(last, match.index))
    nodes.push(el('a', { href: pageHref(to), class: 'wikilink', text: (description ?? target).trim() }))
    last = match.index + token.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

const KEYWORDS = new Set(
  'abstract as async await break case catch class const continue def default defer del do elif else enum export extends false final finally fn for from func function go if impl import in interface is lambda let match mod module mut new nil none not null or package pass private protected pub public raise return self static struct super switch this throw trait true try type typeof use val var void while with yield'.split(
    ' ',
  ),
)
const TOKEN = /(\/\/[^\n]*|#[^\n]*|\/\*(?:[^*]|\*(?!\/))*(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d[\d_.]*\b)|([A-Za-z_$][\w$]*)/g

/**
 * Code as spans by kind (comment, string, number, keyword); `#` comments only where the language uses them.
 * @param {string} code
 * @param {string} [language]
 */
export function highlight(code, language = '') {
  const hashComments = /^(py|python|rb|ruby|sh|bash|shell|yaml|yml|toml|r|perl|pl)$/i.test(language)
  const nodes = []
  let last = 0
  for (const match of code.matchAll(TOKEN)) {
    const [token, comment, string, number, word] = match
    if (comment && comment.startsWith('#') && !hashComments) continue
    if (match.index > last) nodes.push(code.slice(last, match.index))
    if (comment) nodes.push(el('span', { class: 'tok-comment', text: comment }))
    else if (string) nodes.push(el('span', { class: 'tok-string', text: string }))
    else if (number) nodes.push(el('span', { class: 'tok-number', text: number }))
    else if (word && KEYWORDS.has(word)) nodes.push(el('span', { class: 'tok-keyword', text: word }))
    else nodes.push(token)
    last = match.index + token.length
  }
  if (last < code.length) nodes.push(code.slice(last))
  return nodes
}

/**
 * @param {string[]} rows
 * @param {string} slug
 * @param {Resolved} resolved
 */
function tableBlock(rows, slug, resolved) {
  /** @param {string} line */
  const cells = (line) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim())
  const [head, , ...body] = rows
  return el(
    'table',
    { class: 'grid' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        cells(head).map((c) => el('th', {}, inline(c, slug, resolved))),
      ),
    ),
    el(
      'tbody',
      {},
      body.map((row) =>
        el(
          'tr',
          {},
          cells(row).map((c) => el('td', {}, inline(c, slug, resolved))),
        ),
      ),
    ),
  )
}

/** Deeper quotes than anyone writes are shown as text, so a hostile page cannot exhaust the stack. */
const MAX_QUOTE_DEPTH = 16

const CALLOUT = /^\[!([\w-]+)\]([+-]?)[ \t]*(?![ \t])(.*)$/

/**
 * A quote, or an Obsidian callout (`> [!note] Title`, folded with `+` or `-`): a box headed by
 * its title (the type's name when it has none), its lines rendered as markdown.
 * @param {string[]} lines
 * @param {string} slug
 * @param {Resolved} resolved
 * @param {number} depth
 */
function quoteBlock(lines, slug, resolved, depth) {
  const callout = CALLOUT.exec(lines[0].trim())
  if (!callout) return el('blockquote', {}, renderMarkdown(lines.join('\n'), slug, resolved, depth + 1))
  const [, type, fold, title] = callout
  const kind = type.toLowerCase()
  const heading = inline(title.trim() || kind.charAt(0).toUpperCase() + kind.slice(1), slug, resolved)
  const body = renderMarkdown(lines.slice(1).join('\n'), slug, resolved, depth + 1)
  if (fold === '') return el('div', { class: 'callout', 'data-callout': kind }, el('div', { class: 'callout-title' }, heading), body)
  return el('details', { class: 'callout', 'data-callout': kind, open: fold === '+' }, el('summary', { class: 'callout-title' }, heading), body)
}

/** How deep a list item sits: a tab counts as four spaces, as Obsidian indents with either. */
const indentOf = (/** @type {string} */ space) => space.replace(/\t/g, '    ').length

/**
 * @param {string} markdown
 * @param {string} slug
 * @param {Resolved} [resolved]
 * @param {number} [depth]
 */
export function renderMarkdown(markdown, slug, resolved = new Map(), depth = 0) {
  const out = el('div', { class: 'markdown' })
  // A page written on Windows keeps its \r\n; each line is read without its \r.
  const lines = markdown.split(/\r?\n/)
  /** @type {string[]} */
  let paragraph = []
  // The open lists, outermost first: each with the indentation of its items.
  /** @type {{ indent: number, list: HTMLOListElement | HTMLUListElement }[]} */
  let lists = []
  const flush = () => {
    if (paragraph.length) out.append(el('p', {}, inline(paragraph.join(' '), slug, resolved)))
    paragraph = []
    lists = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const fence = /^\s*(```|~~~)(.*)$/.exec(line)
    if (fence) {
      flush()
      const code = []
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i])
      const language = fence[2].trim()
      out.append(el('pre', {}, el('code', { 'data-lang': language }, highlight(code.join('\n'), language))))
      continue
    }
    // An Obsidian comment block (`%%` alone on a line, up to the next one) is not shown.
    if (line.trim() === '%%') {
      flush()
      for (i++; i < lines.length && lines[i].trim() !== '%%'; i++);
      continue
    }
    if (/^\s*\|.*\|\s*$/.test(line) && /^\s*(?:\|\s*)?:?-{2,}/.test(lines[i + 1] ?? '')) {
      flush()
      const rows = []
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++])
      i--
      out.append(tableBlock(rows, slug, resolved))
      continue
    }
    const heading = /^(#{1,6})\s+(?!\s)(.*)$/.exec(line)
    if (heading) {
      flush()
      out.append(el(/** @type {'h2' | 'h3' | 'h4' | 'h5' | 'h6'} */ (`h${Math.min(6, heading[1].length + 1)}`), {}, inline(heading[2], slug, resolved)))
      continue
    }
    if (/^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/.test(line)) {
      flush()
      out.append(el('hr'))
      continue
    }
    const item = /^(\s*)([-*+]|\d+\.)\s+(?!\s)(\[[ xX]\]\s+(?!\s))?(.*)$/.exec(line)
    if (item) {
      if (paragraph.length) flush()
      const indent = indentOf(item[1])
      const ordered = /\d/.test(item[2])
      while (lists.length > 0 && lists[lists.length - 1].indent > indent) lists.pop()
      const top = lists[lists.length - 1]
      if (top && top.indent < indent && top.list.lastElementChild) {
        const nested = el(ordered ? 'ol' : 'ul')
        top.list.lastElementChild.append(nested)
        lists.push({ indent, list: nested })
      } else if (!top || (top.list.tagName === 'OL') !== ordered) {
        const list = el(ordered ? 'ol' : 'ul')
        if (top) lists.pop()
        ;(lists[lists.length - 1]?.list.lastElementChild ?? out).append(list)
        lists.push({ indent, list })
      }
      const box = item[3] ? el('input', { type: 'checkbox', disabled: true, checked: /x/i.test(item[3]) }) : null
      lists[lists.length - 1].list.append(el('li', {}, box, box ? ' ' : null, inline(item[4], slug, resolved)))
      continue
    }
    if (/^\s*>/.test(line) && depth < MAX_QUOTE_DEPTH) {
      flush()
      const quoted = []
      for (; i < lines.length && /^\s*>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^\s*>\s?/, ''))
      i--
      out.append(quoteBlock(quoted, slug, resolved, depth))
      continue
    }
    if (line.trim() === '') flush()
    else {
      lists = []
      paragraph.push(line.trim())
    }
  }
  flush()
  return out
}
