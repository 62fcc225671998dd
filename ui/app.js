// The brain in a browser: a client of the JSON API (/api/<operation>), the same operations the
// CLI and MCP run. Page content is never parsed as HTML: every node is built with textContent,
// and only http(s) and mailto links leave the app.

const TOKEN_KEY = 'brain.token'
const main = document.getElementById('main')
const search = document.getElementById('search')

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'text') node.textContent = value
    else if (key === 'onclick') node.addEventListener('click', value)
    else if (key === 'onsubmit') node.addEventListener('submit', value)
    else node.setAttribute(key, value)
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child)
  return node
}

class ApiError extends Error {
  constructor(status, envelope) {
    super(envelope?.message ?? `HTTP ${status}`)
    this.status = status
    this.code = envelope?.code
    this.hint = envelope?.hint
  }
}

async function api(name, args = {}) {
  const token = sessionStorage.getItem(TOKEN_KEY)
  const response = await fetch(`/api/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(args),
  })
  const body = await response.json().catch(() => ({}))
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY)
    showLogin(token ? 'That token was not accepted.' : undefined)
    throw new ApiError(401, body.error)
  }
  if (!response.ok) throw new ApiError(response.status, body.error)
  return body
}

const pageHref = (slug) => `#/page/${encodeURIComponent(slug)}`

function show(...nodes) {
  main.replaceChildren(...nodes)
}

function showError(err) {
  show(el('p', { class: 'error', role: 'alert', text: `${err.message}${err.hint ? ` — ${err.hint}` : ''}` }))
}

function showLogin(message) {
  const input = el('input', { type: 'password', id: 'token', autocomplete: 'off', 'aria-label': 'Access token' })
  const form = el('form', {
    id: 'login',
    onsubmit: (event) => {
      event.preventDefault()
      sessionStorage.setItem(TOKEN_KEY, input.value.trim())
      route()
    },
  }, el('p', { text: message ?? 'Sign in with an access token (brain auth create <name> --scopes read,write), or on your own machine open the link `brain ui` prints.' }), input, ' ', el('button', { type: 'submit', text: 'Sign in' }))
  show(form)
  input.focus()
}

// ---- markdown, rendered as DOM nodes ----

const INLINE = /(`[^`]+`)|(!?\[\[[^\]]+\]\])|(\[[^\]]+\]\([^)\s]+\))|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)/g

function safeHref(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null
}

function localTarget(url, fromSlug) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) return null
  const path = decodeURIComponent(url.split('#')[0]).replace(/\.md$/i, '')
  if (path === '') return null
  const base = fromSlug.includes('/') ? fromSlug.slice(0, fromSlug.lastIndexOf('/') + 1) : ''
  const parts = []
  for (const part of (path.startsWith('/') ? path.slice(1) : base + path).split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

function inline(text, slug) {
  const nodes = []
  let last = 0
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) nodes.push(text.slice(last, match.index))
    const [token, code, wiki, link, bold, em] = match
    if (code) nodes.push(el('code', { text: code.slice(1, -1) }))
    else if (wiki) {
      const inner = wiki.replace(/^!?\[\[|\]\]$/g, '')
      const [target, shown] = inner.split('|')
      const page = target.split('#')[0].trim()
      nodes.push(page ? el('a', { href: pageHref(page), class: 'wikilink', text: (shown ?? target).trim() }) : (shown ?? target))
    } else if (link) {
      const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link)
      const external = safeHref(url)
      const local = external ? null : localTarget(url, slug)
      if (external) nodes.push(el('a', { href: external, rel: 'noopener noreferrer', target: '_blank', text: label }))
      else if (local) nodes.push(el('a', { href: pageHref(local), text: label }))
      else nodes.push(label)
    } else if (bold) nodes.push(el('strong', { text: bold.slice(2, -2) }))
    else if (em) nodes.push(el('em', { text: em.slice(1, -1) }))
    else nodes.push(token)
    last = match.index + token.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

function renderMarkdown(markdown, slug) {
  const out = el('div', { class: 'markdown' })
  const lines = markdown.split('\n')
  let paragraph = []
  let list = null
  const flush = () => {
    if (paragraph.length) out.append(el('p', {}, ...inline(paragraph.join(' '), slug)))
    paragraph = []
    list = null
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const fence = /^\s*(```|~~~)(.*)$/.exec(line)
    if (fence) {
      flush()
      const code = []
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i])
      out.append(el('pre', {}, el('code', { 'data-lang': fence[2].trim(), text: code.join('\n') })))
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      out.append(el(`h${Math.min(6, heading[1].length + 1)}`, {}, ...inline(heading[2], slug)))
      continue
    }
    const item = /^\s*([-*+]|\d+\.)\s+(.*)$/.exec(line)
    if (item) {
      if (paragraph.length) flush()
      const ordered = /\d/.test(item[1])
      if (!list || (list.tagName === 'OL') !== ordered) {
        list = el(ordered ? 'ol' : 'ul')
        out.append(list)
      }
      list.append(el('li', {}, ...inline(item[2], slug)))
      continue
    }
    if (/^>\s?/.test(line)) {
      flush()
      out.append(el('blockquote', {}, ...inline(line.replace(/^>\s?/, ''), slug)))
      continue
    }
    if (line.trim() === '') flush()
    else {
      list = null
      paragraph.push(line.trim())
    }
  }
  flush()
  return out
}

// ---- screens ----

async function home() {
  const { pages } = await api('list_pages', { limit: 30 })
  show(el('h1', { text: 'Recent pages' }), resultList(pages.map((p) => ({ slug: p.slug, title: p.title, snippet: p.type }))))
}

function resultList(items) {
  if (items.length === 0) return el('p', { class: 'muted', text: 'Nothing found.' })
  return el('ul', { class: 'results' }, ...items.map((item) =>
    el('li', {}, el('a', { href: pageHref(item.slug), class: 'result', text: item.title || item.slug }), ' ', el('span', { class: 'slug', text: item.slug }),
      item.snippet ? el('div', { class: 'muted', text: item.snippet }) : null)))
}

let searchSeq = 0
async function runSearch(query) {
  const seq = ++searchSeq
  if (query.trim() === '') return home()
  const { results } = await api('search', { query, limit: 20 })
  if (seq !== searchSeq) return
  show(el('h1', { text: `Search: ${query}` }), resultList(results.map((r) => ({ slug: r.slug, title: r.title, snippet: r.snippet }))))
}

function linkList(title, links, key) {
  if (!links.length) return el('div', {}, el('h3', { text: title }), el('p', { class: 'muted', text: 'None.' }))
  const item = (l) => el('li', {},
    l[key] ? el('a', { href: pageHref(l[key]), text: l[key] }) : el('span', { class: 'muted', text: `${l.target_text ?? '?'} (not yet written)` }),
    l.link_type ? el('span', { class: 'muted', text: ` (${l.link_type}${l.line ? `, line ${l.line}` : ''})` }) : null,
    l.context ? el('div', { class: 'muted', text: l.context }) : null)
  return el('div', {}, el('h3', { text: title }), el('ul', {}, ...links.map(item)))
}

async function pageView(slug) {
  const page = await api('get_page', { slug })
  const [out, back] = await Promise.all([api('get_links', { slug }).catch(() => ({ links: [] })), api('get_backlinks', { slug }).catch(() => ({ links: [] }))])
  const fm = Object.entries(page.frontmatter ?? {})
  const actions = el('p', {},
    el('a', { href: `#/edit/${encodeURIComponent(slug)}`, text: 'Edit' }), ' · ',
    el('a', { href: `#/history/${encodeURIComponent(slug)}`, text: 'History' }), ' · ',
    el('button', { type: 'button', id: 'delete', text: 'Delete', onclick: async () => {
      if (!confirm(`Move ${slug} to the trash?`)) return
      await api('delete_page', { slug })
      location.hash = '#/trash'
    } }))
  show(
    el('h1', { id: 'title', text: page.title }),
    el('p', { class: 'slug', text: `${page.slug} · ${page.type}${page.tags.length ? ` · ${page.tags.join(', ')}` : ''}` }),
    actions,
    fm.length ? el('table', { class: 'fm' }, ...fm.map(([k, v]) => el('tr', {}, el('td', { text: k }), el('td', { text: typeof v === 'string' ? v : JSON.stringify(v) })))) : null,
    page.page_kind === 'code' ? el('pre', {}, el('code', { text: page.compiled_truth })) : renderMarkdown(page.compiled_truth, slug),
    page.timeline ? el('section', {}, el('h2', { text: 'Timeline' }), renderMarkdown(page.timeline, slug)) : null,
    el('aside', { class: 'side' }, linkList('Links', out.links, 'to_slug'), linkList('Backlinks', back.links, 'from_slug')),
  )
}

async function editView(slug) {
  const page = await api('get_page', { slug })
  const { total } = await api('list_versions', { slug, limit: 1 })
  const { markdown } = await api('get_version', { slug, version: total })
  const area = el('textarea', { id: 'editor', 'aria-label': 'Markdown' })
  area.value = markdown
  const status = el('p', { role: 'status', class: 'muted' })
  const form = el('form', {
    onsubmit: async (event) => {
      event.preventDefault()
      try {
        const saved = await api('put_page', { slug, content: area.value, expected_content_hash: page.content_hash })
        status.textContent = `Saved (${saved.status}).`
        location.hash = pageHref(slug)
      } catch (err) {
        status.className = 'error'
        status.textContent = err.code === 'write_conflict' ? 'This page changed since you opened it; nothing was saved. Reload to see the newer text.' : err.message
      }
    },
  }, area, el('p', {}, el('button', { type: 'submit', id: 'save', text: 'Save' }), ' ', el('a', { href: pageHref(slug), text: 'Cancel' })), status)
  show(el('h1', { text: `Edit ${slug}` }), form)
  area.focus()
}

async function historyView(slug) {
  const { versions } = await api('list_versions', { slug })
  const diffBox = el('pre', { class: 'diff', id: 'diff' })
  const rows = versions.map((v) => el('li', {},
    `${v.number} · ${new Date(v.written_at).toLocaleString()} · ${v.via ?? '-'}${v.by ? ` · ${v.by}` : ''} · +${v.lines_added} −${v.lines_removed}${v.current ? ' (current)' : ' '}`,
    v.current ? null : el('button', { type: 'button', text: 'Diff', onclick: async () => {
      const { diff } = await api('diff_versions', { slug, from: v.number })
      diffBox.replaceChildren(...diff.split('\n').map((line) => el('div', { class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '', text: line })))
    } }),
    v.current ? null : el('button', { type: 'button', text: 'Revert', onclick: async () => {
      await api('revert_page', { slug, to: v.number })
      route()
    } })))
  show(el('h1', { text: `History of ${slug}` }), el('p', {}, el('a', { href: pageHref(slug), text: 'Back to the page' })), el('ol', { reversed: '' }, ...rows), diffBox)
}

async function trashView() {
  const { pages } = await api('list_trash', {})
  show(el('h1', { text: 'Trash' }), pages.length === 0 ? el('p', { class: 'muted', text: 'The trash is empty.' }) : el('ul', {}, ...pages.map((p) =>
    el('li', {}, `${p.slug} · deleted ${new Date(p.deleted_at).toLocaleString()} `, el('button', { type: 'button', text: 'Restore', onclick: async () => {
      const restored = await api('restore_page', { page: String(p.trash_id) })
      location.hash = pageHref(restored.slug)
    } })))))
}

async function jobsView(status) {
  const { jobs } = await api('list_jobs', { limit: 100, ...(status ? { status } : {}) })
  const filters = el('p', {}, ...['', 'waiting', 'active', 'completed', 'dead'].flatMap((s) => [el('a', { href: `#/jobs/${s}`, text: s || 'all' }), ' ']))
  const rows = jobs.map((job) => el('tr', { 'data-job': job.id },
    el('td', { text: job.id }), el('td', { text: job.name }), el('td', { class: 'status', text: job.status }), el('td', { text: String(job.attempts) }),
    el('td', {}, job.status === 'dead' ? el('button', { type: 'button', class: 'retry', text: 'Retry', onclick: async () => { await api('retry_job', { id: job.id }); route() } }) : null,
      job.status === 'waiting' || job.status === 'active' ? el('button', { type: 'button', class: 'cancel', text: 'Cancel', onclick: async () => { await api('cancel_job', { id: job.id }); route() } }) : null)))
  show(el('h1', { text: 'Jobs' }), filters, jobs.length === 0 ? el('p', { class: 'muted', text: 'No jobs.' }) : el('table', { class: 'fm jobs' }, ...rows))
}

async function route() {
  const [, view, ...rest] = location.hash.split('/')
  const arg = decodeURIComponent(rest.join('/'))
  try {
    if (view === 'page') await pageView(arg)
    else if (view === 'edit') await editView(arg)
    else if (view === 'history') await historyView(arg)
    else if (view === 'trash') await trashView()
    else if (view === 'jobs') await jobsView(arg)
    else if (view === 'search') await runSearch(arg)
    else await home()
  } catch (err) {
    if (err.status !== 401) showError(err)
  }
}

let typing
search.addEventListener('input', () => {
  clearTimeout(typing)
  typing = setTimeout(() => runSearch(search.value).catch(showError), 150)
})
document.getElementById('signout').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY)
  showLogin()
})
document.addEventListener('keydown', (event) => {
  if (event.key === '/' && document.activeElement !== search && !(document.activeElement instanceof HTMLTextAreaElement) && !(document.activeElement instanceof HTMLInputElement)) {
    event.preventDefault()
    search.focus()
  }
})
window.addEventListener('hashchange', route)
route()
