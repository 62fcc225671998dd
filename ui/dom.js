// DOM helpers: every node is built with textContent or attributes, never from HTML text, so
// nothing a page holds can become markup or script.

const SVG_NS = 'http://www.w3.org/2000/svg'

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'text') node.textContent = value
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  apply(node, attrs)
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child)
  return node
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag)
  apply(node, attrs)
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child)
  return node
}

export const pageHref = (slug) => `#/page/${encodeURIComponent(slug)}`
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—')

/** Text with every occurrence of the query's words wrapped in <mark>, built as nodes. */
export function highlighted(text, query) {
  const words = [
    ...new Set(
      String(query)
        .toLowerCase()
        .match(/[\p{L}\p{N}_]{2,}/gu) ?? [],
    ),
  ]
  if (words.length === 0) return [text]
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const pattern = new RegExp(`(${escaped.join('|')})`, 'giu')
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? el('mark', { text: part }) : part))
}

export function table(headers, rows, attrs = {}) {
  return el(
    'table',
    { class: 'grid', ...attrs },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headers.map((h) => el('th', { text: h })),
      ),
    ),
    el('tbody', {}, rows),
  )
}
