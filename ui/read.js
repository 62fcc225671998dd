// Reading the brain: search as you type, a page (markdown or code), its neighbourhood as a
// graph, and the tags.

import { api } from './api.js'
import { el, highlighted, pageHref, svg, when } from './dom.js'
import { highlight, plainText, renderMarkdown } from './markdown.js'

/** Plain-text notes (`.txt`, reStructuredText, Org, AsciiDoc) are shown as written: their lines and columns are not markdown. */
const PLAIN_TEXT_NOTE = /\.(txt|text|rst|org|adoc|asciidoc)$/i

// The rows of the operations' JSON that these screens read (the server's schemas are the whole truth).
/** @typedef {import('./dom.js').Show} Show */
/** @typedef {{ slug: string, title: string, type: string, tags: string[] }} PageRow */
/** @typedef {{ slug: string, title: string, snippet?: string, start_line?: number, end_line?: number, symbol_type?: string, symbol_name?: string }} SearchResult */
/** @typedef {{ slug: string, title?: string, where?: string | null, snippet?: string, detail?: string }} ResultItem */
/** @typedef {{ to_slug?: string, from_slug?: string, target_text?: string, link_type?: string, line?: number, context?: string }} LinkRow */
/** @typedef {{ slug: string, start_line?: number, symbol_name?: string, symbol_name_qualified?: string, file?: string, edge_type?: string }} CodeRef */
/** @typedef {{ name: string, qualified: string, symbol_type: string, start_line: number, end_line: number }} CodeSymbol */
/** @typedef {{ slug: string, depth: number, page_kind: string, path: string[], via: string }} GraphNode */

/** @param {Show} show */
export async function home(show) {
  const [{ pages }, stats] = await Promise.all([api('list_pages', { limit: 30 }), api('get_stats').catch(() => null)])
  show(
    el('h1', { text: 'Recent pages' }),
    stats
      ? el('p', {
          class: 'muted',
          id: 'stats',
          text: `${stats.pages} pages (${stats.markdown_pages} notes, ${stats.code_pages} code) · ${stats.chunks} chunks, ${stats.embedded_chunks} embedded · ${stats.tags} tags · ${stats.sources} sources`,
        })
      : null,
    resultList(pages.map((/** @type {PageRow} */ p) => ({ slug: p.slug, title: p.title, detail: `${p.type}${p.tags.length ? ` · ${p.tags.join(', ')}` : ''}` }))),
  )
}

/**
 * @param {ResultItem[]} items
 * @param {string} [query]
 */
function resultList(items, query) {
  if (items.length === 0) return el('p', { class: 'muted', text: 'Nothing found.' })
  return el(
    'ul',
    { class: 'results' },
    items.map((item) =>
      el(
        'li',
        {},
        el('a', { href: pageHref(item.slug), class: 'result', text: item.title || item.slug }),
        ' ',
        el('span', { class: 'slug', text: item.slug }),
        item.where ? el('span', { class: 'slug', text: ` · ${item.where}` }) : null,
        item.snippet ? el('div', { class: 'snippet' }, highlighted(item.snippet, query ?? '')) : null,
        item.detail ? el('div', { class: 'muted', text: item.detail }) : null,
      ),
    ),
  )
}

/**
 * The search filters, kept across searches; their values become the operation's arguments.
 * @type {Record<'mode' | 'type' | 'tag' | 'source' | 'language' | 'symbol_kind', string>}
 */
const filters = { mode: 'search', type: '', tag: '', source: '', language: '', symbol_kind: '' }

/** Suggestions for the tag and source filters, read once per visit. */
/** @type {Promise<[{ tags: { tag: string }[] }, { sources: { id: string }[] }]> | null} */
let suggestions = null
function suggestionLists() {
  const tags = el('datalist', { id: 'tag-suggestions' })
  const sources = el('datalist', { id: 'source-suggestions' })
  suggestions ??= Promise.all([api('list_tags', { limit: 500 }).catch(() => ({ tags: [] })), api('list_sources').catch(() => ({ sources: [] }))])
  void suggestions.then(([t, s]) => {
    tags.replaceChildren(...t.tags.map((x) => el('option', { value: x.tag })))
    sources.replaceChildren(...s.sources.map((x) => el('option', { value: x.id })))
  })
  return [tags, sources]
}

/** @param {() => void} onChange */
export function filterBar(onChange) {
  /**
   * @param {'type' | 'tag' | 'source' | 'language' | 'symbol_kind'} name
   * @param {string} label
   * @param {string} placeholder
   * @param {string} [list]
   */
  const field = (name, label, placeholder, list) => {
    const input = el('input', { name, placeholder, 'aria-label': label, size: 10, value: filters[name], list })
    input.addEventListener('change', () => {
      filters[name] = input.value.trim()
      onChange()
    })
    return input
  }
  const mode = el(
    'select',
    { name: 'mode', 'aria-label': 'Search mode' },
    el('option', { value: 'search', text: 'keyword', selected: filters.mode === 'search' }),
    el('option', { value: 'query', text: 'hybrid', selected: filters.mode === 'query' }),
  )
  mode.addEventListener('change', () => {
    filters.mode = mode.value
    onChange()
  })
  return el(
    'form',
    { class: 'filters', id: 'filters', onsubmit: (/** @type {SubmitEvent} */ e) => e.preventDefault() },
    mode,
    field('type', 'Page type', 'type'),
    field('tag', 'Tag', 'tag', 'tag-suggestions'),
    field('source', 'Source id', 'source', 'source-suggestions'),
    field('language', 'Code language', 'language'),
    field('symbol_kind', 'Symbol kind', 'symbol kind'),
    suggestionLists(),
  )
}

let searchSeq = 0
/**
 * @param {Show} show
 * @param {string} query
 */
export async function runSearch(show, query) {
  const seq = ++searchSeq
  if (query.trim() === '') return home(show)
  /** @type {Record<string, unknown>} */
  const args = { query, limit: 20 }
  for (const key of /** @type {const} */ (['type', 'tag', 'source', 'language', 'symbol_kind'])) if (filters[key]) args[key] = filters[key]
  const response = await api(filters.mode, args)
  if (seq !== searchSeq) return
  const where = (/** @type {SearchResult} */ r) => (r.start_line ? `lines ${r.start_line}–${r.end_line}` : r.symbol_type === 'pdf_page' ? r.symbol_name : null)
  show(
    el('h1', { text: `Search: ${query}` }),
    filterBar(() => runSearch(show, query)),
    response.notice ? el('p', { class: 'muted', role: 'note', text: response.notice }) : null,
    resultList(
      response.results.map((/** @type {SearchResult} */ r) => ({ slug: r.slug, title: r.title, snippet: r.snippet, where: where(r) })),
      query,
    ),
  )
}

/**
 * @param {string} title
 * @param {{ links: LinkRow[], total?: number }} list
 * @param {'to_slug' | 'from_slug'} key
 */
function linkList(title, { links, total }, key) {
  /** @param {LinkRow} l */
  const item = (l) =>
    el(
      'li',
      {},
      l[key] ? el('a', { href: pageHref(/** @type {string} */ (l[key])), text: l[key] }) : el('span', { class: 'muted', text: `${l.target_text ?? '?'} (not yet written)` }),
      l.link_type ? el('span', { class: 'muted', text: ` (${l.link_type}${l.line ? `, line ${l.line}` : ''})` }) : null,
      l.context ? el('div', { class: 'muted context', text: l.context }) : null,
    )
  return el(
    'section',
    {},
    el('h3', { text: /** @type {number} */ (total) > links.length ? `${title} (${links.length} of ${total})` : `${title} (${links.length})` }),
    links.length ? el('ul', {}, links.map(item)) : el('p', { class: 'muted', text: 'None.' }),
  )
}

/** @param {Record<string, unknown> | null | undefined} frontmatter */
function frontMatterTable(frontmatter) {
  const rows = Object.entries(frontmatter ?? {})
  if (rows.length === 0) return null
  return el(
    'table',
    { class: 'fm' },
    rows.map(([k, v]) => el('tr', {}, el('td', { text: k }), el('td', { text: typeof v === 'string' ? v : JSON.stringify(v) }))),
  )
}

/**
 * @param {Show} show
 * @param {string} slug
 * @param {import('./dom.js').Navigate} navigate
 */
export async function pageView(show, slug, navigate) {
  const page = await api('get_page', { slug })
  const [out, back] = await Promise.all([api('get_links', { slug }).catch(() => ({ links: [] })), api('get_backlinks', { slug }).catch(() => ({ links: [] }))])
  /** @type {Map<string, string>} */
  const resolved = new Map(
    out.links.filter((/** @type {LinkRow} */ l) => l.to_slug && l.target_text).map((/** @type {Required<LinkRow>} */ l) => [l.target_text.split('#')[0].trim().toLowerCase(), l.to_slug]),
  )
  const enc = encodeURIComponent(slug)
  const actions = el(
    'nav',
    { class: 'actions' },
    el('a', { href: `#/edit/${enc}`, text: 'Edit' }),
    ' · ',
    el('a', { href: `#/history/${enc}`, text: 'History' }),
    ' · ',
    el('a', { href: `#/graph/${enc}`, text: 'Graph' }),
    ' · ',
    el('button', {
      type: 'button',
      id: 'delete',
      text: 'Delete',
      onclick: async () => {
        if (!confirm(`Move ${slug} to the trash?`)) return
        await api('delete_page', { slug })
        navigate('#/trash')
      },
    }),
  )
  const body =
    page.page_kind === 'code'
      ? await codeBody(page)
      : PLAIN_TEXT_NOTE.test(page.slug)
        ? el('pre', { class: 'plain-text' }, plainText(page.compiled_truth, slug, resolved))
        : renderMarkdown(page.compiled_truth, slug, resolved)
  show(
    el(
      'article',
      { class: 'page' },
      el('h1', { id: 'title', text: page.title }),
      el('p', { class: 'slug', text: `${page.slug} · ${page.type}${page.tags.length ? ` · ${page.tags.join(', ')}` : ''} · updated ${when(page.updated_at)}` }),
      actions,
      frontMatterTable(page.frontmatter),
      body,
      page.timeline ? el('section', { class: 'timeline' }, el('h2', { text: 'Timeline' }), renderMarkdown(page.timeline, slug, resolved)) : null,
    ),
    el('aside', { class: 'side' }, linkList('Links', out, 'to_slug'), linkList('Backlinks', back, 'from_slug')),
  )
}

/** A code page: the file with line numbers and highlighting, and its outline with callers and callees per symbol. */
async function codeBody(/** @type {{ slug: string, source_id: string, compiled_truth: string, frontmatter?: { language?: string } }} */ page) {
  const { symbols } = await api('code_symbols', { slug: page.slug, source: page.source_id }).catch(() => ({ symbols: [] }))
  const language = page.frontmatter?.language ?? ''
  const lines = page.compiled_truth.replace(/\n$/, '').split('\n')
  const code = el(
    'pre',
    { class: 'code' },
    el(
      'code',
      { 'data-lang': language },
      lines.map((line, i) => el('span', { class: 'line', id: `L${i + 1}` }, el('span', { class: 'ln', text: String(i + 1) }), highlight(line, language), '\n')),
    ),
  )
  const detail = el('div', { id: 'symbol-detail' })
  const showGraph = async (/** @type {string} */ symbol) => {
    detail.replaceChildren(el('p', { class: 'muted', text: `Loading ${symbol}…` }))
    const [callers, callees] = await Promise.all([api('code_callers', { symbol }), api('code_callees', { symbol })])
    const row = (/** @type {CodeRef} */ r) =>
      el(
        'li',
        {},
        el('a', { href: `${pageHref(r.slug)}`, class: 'code-ref', 'data-line': r.start_line ?? '', text: `${r.symbol_name_qualified ?? r.symbol_name ?? r.slug}` }),
        el('span', { class: 'muted', text: ` ${r.file ?? r.slug}${r.start_line ? `:${r.start_line}` : ''}${r.edge_type ? ` (${r.edge_type})` : ''}` }),
      )
    detail.replaceChildren(
      .../** @type {Node[]} */ (
        [
          el('h3', { text: symbol }),
          callers.ambiguous ? el('p', { class: 'muted', text: 'This name has several definitions; results may mix them.' }) : null,
          el('h4', { text: `Callers (${callers.results.length})` }),
          el('ul', { class: 'callers' }, callers.results.map(row)),
          el('h4', { text: `Callees (${callees.results.length})` }),
          el('ul', { class: 'callees' }, callees.results.map(row)),
        ].filter(Boolean)
      ),
    )
  }
  const outline = el(
    'section',
    { class: 'outline' },
    el('h3', { text: `Symbols (${symbols.length})` }),
    symbols.length === 0
      ? el('p', { class: 'muted', text: 'No symbols.' })
      : el(
          'ul',
          {},
          symbols.map((/** @type {CodeSymbol} */ s) =>
            el(
              'li',
              {},
              el('button', {
                type: 'button',
                class: 'symbol linkish',
                'data-symbol': s.qualified,
                text: s.qualified,
                onclick: () => {
                  document.getElementById(`L${s.start_line}`)?.scrollIntoView({ block: 'center' })
                  void showGraph(s.name)
                },
              }),
              el('span', { class: 'muted', text: ` ${s.symbol_type}, lines ${s.start_line}–${s.end_line}` }),
            ),
          ),
        ),
    detail,
  )
  return el('div', { class: 'code-page' }, outline, code)
}

/** The page's neighbourhood, depth 1–2, notes and code together, drawn in rings by depth. */
/**
 * @param {Show} show
 * @param {string} slug
 * @param {string} [depthText]
 */
export async function graphView(show, slug, depthText) {
  const depth = depthText === '2' ? 2 : 1
  const walk = await api('graph_walk', { slug, depth, limit: 60 })
  const size = 640
  const centre = size / 2
  /** @type {string[][]} */
  const byDepth = [[walk.start.slug], [], []]
  for (const node of walk.nodes) byDepth[node.depth]?.push(node.slug)
  /** @type {Map<string, number[]>} */
  const position = new Map([[walk.start.slug, [centre, centre]]])
  for (const d of [1, 2]) {
    const ring = byDepth[d]
    ring.forEach((s, i) => {
      const angle = (2 * Math.PI * i) / Math.max(1, ring.length) + d * 0.4
      position.set(s, [centre + Math.cos(angle) * d * 140, centre + Math.sin(angle) * d * 140])
    })
  }
  /** @type {Map<string, string>} */
  const kind = new Map([[walk.start.slug, walk.start.page_kind], ...walk.nodes.map((/** @type {GraphNode} */ n) => [n.slug, n.page_kind])])
  const edges = walk.nodes.map((/** @type {GraphNode} */ n) => {
    const from = n.path[n.path.length - 2]
    const [x1, y1] = position.get(from) ?? [centre, centre]
    const [x2, y2] = /** @type {number[]} */ (position.get(n.slug))
    return svg('line', { x1, y1, x2, y2, class: `edge ${n.via}` }, svg('title', { text: n.via }))
  })
  const nodes = [...position.entries()].map(([s, [x, y]]) =>
    svg(
      'a',
      { href: s === walk.start.slug ? pageHref(s) : `#/graph/${encodeURIComponent(s)}/${depth}`, class: `node ${kind.get(s)}${s === walk.start.slug ? ' start' : ''}`, 'data-slug': s },
      svg('circle', { cx: x, cy: y, r: s === walk.start.slug ? 9 : 6 }),
      svg('text', { x: x + 10, y: y + 4, text: s.split('/').pop() }),
      svg('title', { text: s }),
    ),
  )
  show(
    el('h1', { text: `Around ${walk.start.title}` }),
    el(
      'p',
      {},
      el('a', { href: pageHref(slug), text: 'Open the page' }),
      ' · depth ',
      el('a', { href: `#/graph/${encodeURIComponent(slug)}/1`, 'aria-current': depth === 1 ? 'true' : null, text: '1' }),
      ' ',
      el('a', { href: `#/graph/${encodeURIComponent(slug)}/2`, 'aria-current': depth === 2 ? 'true' : null, text: '2' }),
      el('span', { class: 'muted', text: ` · ${walk.nodes.length} pages${walk.truncated ? ' (capped)' : ''}; notes are round and blue, code green. Click a page to walk on.` }),
    ),
    svg('svg', { viewBox: `0 0 ${size} ${size}`, class: 'graph', role: 'img', 'aria-label': `Pages linked to ${slug}` }, edges, nodes),
  )
}

/** @param {Show} show */
export async function tagsView(show) {
  const { tags } = await api('list_tags', { limit: 500 })
  show(
    el('h1', { text: 'Tags' }),
    tags.length === 0
      ? el('p', { class: 'muted', text: 'No tags.' })
      : el(
          'ul',
          { class: 'tags' },
          tags.map((/** @type {{ tag: string, pages: number }} */ t) =>
            el('li', {}, el('a', { href: `#/tag/${encodeURIComponent(t.tag)}`, text: t.tag }), el('span', { class: 'muted', text: ` ${t.pages}` })),
          ),
        ),
  )
}

/**
 * @param {Show} show
 * @param {string} tag
 */
export async function tagView(show, tag) {
  const { pages } = await api('list_pages', { tag, limit: 200 })
  show(el('h1', { text: `#${tag}` }), resultList(pages.map((/** @type {PageRow} */ p) => ({ slug: p.slug, title: p.title, detail: p.type }))))
}
