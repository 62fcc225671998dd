// DOM helpers: every node is built with textContent or attributes, never from HTML text, so
// nothing a page holds can become markup or script.

const SVG_NS = 'http://www.w3.org/2000/svg'

/**
 * Attributes of a built node: `text` sets its textContent, `on<event>` functions become listeners,
 * anything else an attribute (true for a bare attribute; false, null and undefined leave it out).
 * @typedef {Record<string, unknown>} Attrs
 */
/** A child of a built node; null, undefined and false are left out, arrays are flattened. @typedef {Node | string | null | undefined | false} Child */

/** Puts a screen's nodes in the main area; null and undefined are left out. @typedef {(...nodes: (Node | string | null | undefined)[]) => void} Show */
/** Goes to a `#/...` location, re-running the screen when it is the current one. @typedef {(hash: string) => void} Navigate */
/** Re-runs the current screen. @typedef {() => Promise<void>} Refresh */
/** What a failed call throws: an ApiError, or an Error of the browser (fetch, JSON). @typedef {Error & { status?: number, hint?: string }} Failure */

/**
 * @param {Element} node
 * @param {Attrs} attrs
 */
function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'text') node.textContent = String(value)
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), /** @type {EventListener} */ (value))
    else node.setAttribute(key, value === true ? '' : String(value))
  }
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  apply(node, attrs)
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child)
  return node
}

/**
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag))
  apply(node, attrs)
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child)
  return node
}

/** @param {string} slug */
export const pageHref = (slug) => `#/page/${encodeURIComponent(slug)}`
/** @param {string | null | undefined} iso */
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—')

/**
 * Text with every occurrence of the query's words wrapped in <mark>, built as nodes.
 * @param {string} text
 * @param {unknown} query
 * @returns {(string | HTMLElement)[]}
 */
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

/**
 * @param {string[]} headers
 * @param {Child[]} rows
 * @param {Attrs} [attrs]
 */
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
