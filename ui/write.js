// Changing the brain: edit with a preview (a stale save is refused, never overwrites), capture,
// history with diffs and revert, and the trash.

import { api } from './api.js'
import { el, pageHref, when } from './dom.js'
import { renderMarkdown } from './markdown.js'

/** @typedef {import('./dom.js').Show} Show */
/** @typedef {import('./dom.js').Navigate} Navigate */
/** @typedef {import('./dom.js').Failure} Failure */
/** A row of list_versions. @typedef {{ number: number, written_at: string, via?: string, by?: string, lines_added: number, lines_removed: number, current: boolean }} Version */
/** A row of list_trash. @typedef {{ slug: string, deleted_at: string, trash_id: number }} TrashedPage */

/**
 * @param {Show} show
 * @param {string} slug
 * @param {Navigate} navigate
 */
export async function editView(show, slug, navigate) {
  const page = await api('get_page', { slug })
  const { total } = await api('list_versions', { slug, limit: 1 })
  const { markdown } = await api('get_version', { slug, version: total })
  const area = el('textarea', { id: 'editor', 'aria-label': 'Markdown' })
  area.value = markdown
  const preview = el('div', { id: 'preview', class: 'preview', 'aria-live': 'polite' })
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typing
  const refresh = () => preview.replaceChildren(renderMarkdown(area.value.replace(/^---\n[\s\S]*?\n---\n/, ''), slug))
  area.addEventListener('input', () => {
    clearTimeout(typing)
    typing = setTimeout(refresh, 200)
  })
  refresh()
  const status = el('p', { role: 'status', class: 'muted' })
  const form = el(
    'form',
    {
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault()
        try {
          const saved = await api('put_page', { slug, content: area.value, expected_content_hash: page.content_hash })
          status.textContent = `Saved (${saved.status}).`
          navigate(pageHref(slug))
        } catch (caught) {
          const err = /** @type {Failure & { code?: string }} */ (caught)
          status.className = 'error'
          status.textContent = err.code === 'write_conflict' ? 'This page changed since you opened it; nothing was saved. Reload to see the newer text.' : err.message
        }
      },
    },
    el('div', { class: 'split' }, area, preview),
    el('p', {}, el('button', { type: 'submit', id: 'save', text: 'Save' }), ' ', el('a', { href: pageHref(slug), text: 'Cancel' }), el('span', { class: 'muted', text: ' Ctrl+Enter saves.' })),
    status,
  )
  area.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit()
  })
  show(el('h1', { text: `Edit ${slug}` }), form)
  area.focus()
}

/**
 * @param {Show} show
 * @param {Navigate} navigate
 */
export async function captureView(show, navigate) {
  const area = el('textarea', { id: 'capture-text', 'aria-label': 'What to capture', placeholder: 'A thought, a snippet, a message…' })
  const slugInput = el('input', { id: 'capture-slug', placeholder: 'slug (optional, default inbox/<date>-<hash>)', 'aria-label': 'Slug' })
  const status = el('p', { role: 'status', class: 'muted' })
  const form = el(
    'form',
    {
      id: 'capture',
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault()
        try {
          const receipt = await api('capture', { text: area.value, ...(slugInput.value.trim() ? { slug: slugInput.value.trim() } : {}) })
          navigate(pageHref(receipt.slug))
        } catch (caught) {
          const err = /** @type {Failure} */ (caught)
          status.className = 'error'
          status.textContent = `${err.message}${err.hint ? ` — ${err.hint}` : ''}`
        }
      },
    },
    area,
    el('p', {}, slugInput, ' ', el('button', { type: 'submit', text: 'Capture' })),
    status,
  )
  show(el('h1', { text: 'Capture' }), form)
  area.focus()
}

/**
 * @param {Show} show
 * @param {string} slug
 * @param {import('./dom.js').Refresh} refresh
 */
export async function historyView(show, slug, refresh) {
  const { versions, total } = await api('list_versions', { slug })
  const diffBox = el('pre', { class: 'diff', id: 'diff' })
  const rows = versions.map((/** @type {Version} */ v) =>
    el(
      'li',
      {},
      `${v.number} · ${when(v.written_at)} · ${v.via ?? '-'}${v.by ? ` · ${v.by}` : ''} · +${v.lines_added} −${v.lines_removed}${v.current ? ' (current) ' : ' '}`,
      v.current
        ? null
        : el('button', {
            type: 'button',
            text: 'Diff',
            onclick: async () => {
              const { diff } = await api('diff_versions', { slug, from: v.number })
              diffBox.replaceChildren(...diff.split('\n').map((/** @type {string} */ line) => el('div', { class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '', text: line })))
            },
          }),
      v.current
        ? null
        : el('button', {
            type: 'button',
            text: 'Revert',
            onclick: async () => {
              if (!confirm(`Make version ${v.number} the current text of ${slug}? The current text stays in the history.`)) return
              await api('revert_page', { slug, to: v.number })
              refresh()
            },
          }),
    ),
  )
  show(
    el('h1', { text: `History of ${slug}` }),
    el('p', {}, el('a', { href: pageHref(slug), text: 'Back to the page' }), el('span', { class: 'muted', text: ` · ${total} versions` })),
    el('ol', { reversed: true }, rows),
    diffBox,
  )
}

/**
 * @param {Show} show
 * @param {Navigate} navigate
 */
export async function trashView(show, navigate) {
  const { pages } = await api('list_trash', {})
  show(
    el('h1', { text: 'Trash' }),
    pages.length === 0
      ? el('p', { class: 'muted', text: 'The trash is empty.' })
      : el(
          'ul',
          {},
          pages.map((/** @type {TrashedPage} */ p) =>
            el(
              'li',
              {},
              `${p.slug} · deleted ${when(p.deleted_at)} `,
              el('button', {
                type: 'button',
                text: 'Restore',
                onclick: async () => {
                  const restored = await api('restore_page', { page: String(p.trash_id) })
                  navigate(pageHref(restored.slug))
                },
              }),
            ),
          ),
        ),
  )
}
