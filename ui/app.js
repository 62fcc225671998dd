// The brain in a browser: a client of the JSON API (/api/<operation>), the same operations the
// CLI and MCP run. Page content is never parsed as HTML: every node is built with textContent,
// and only http(s) and mailto links leave the app.

import { api, token, whenSignedOut } from './api.js'
import { el } from './dom.js'
import { graphView, home, pageView, runSearch, tagView, tagsView } from './read.js'
import { captureView, editView, historyView, trashView } from './write.js'
import { activityView, doctorView, jobView, jobsView, leaveLive, requestsView, sourcesView, tokensView } from './operate.js'

/** @typedef {import('./dom.js').Failure} Failure */

// index.html holds both; the app cannot start without them.
const main = /** @type {HTMLElement} */ (document.getElementById('main'))
const search = /** @type {HTMLInputElement} */ (document.getElementById('search'))

/** @type {import('./dom.js').Show} */
function show(...nodes) {
  main.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined))
}

/** @param {Failure} err */
function showError(err) {
  show(el('p', { class: 'error', role: 'alert', text: `${err.message}${err.hint ? ` — ${err.hint}` : ''}` }))
}

/** @param {string} [message] */
function showLogin(message) {
  leaveLive()
  const input = el('input', { type: 'password', id: 'token', autocomplete: 'off', 'aria-label': 'Access token' })
  const form = el(
    'form',
    {
      id: 'login',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault()
        token.set(input.value.trim())
        void start()
      },
    },
    el('p', { text: message ?? 'Sign in with an access token (brain auth create <name> --scopes read,write), or on your own machine open the link `brain ui` prints.' }),
    input,
    ' ',
    el('button', { type: 'submit', text: 'Sign in' }),
  )
  show(form)
  input.focus()
}
whenSignedOut(showLogin)

/** @type {import('./dom.js').Navigate} */
const navigate = (hash) => {
  if (location.hash === hash) void route()
  else location.hash = hash
}
const refresh = () => route()

/**
 * Each screen by the first segment of `#/<view>/...`: `arg` is the rest decoded and joined,
 * `parts` the rest as it stands in the location.
 * @type {Record<string, (arg: string, parts: string[]) => Promise<void>>}
 */
const SCREENS = {
  page: (arg) => pageView(show, arg, navigate),
  edit: (arg) => editView(show, arg, navigate),
  history: (arg) => historyView(show, arg, refresh),
  // `#/graph/<encoded slug>/<depth>`: the slug is one encoded segment, so a slug ending in /1 stays whole.
  graph: (_arg, parts) => {
    const depth = parts.length > 1 && /^[12]$/.test(parts[parts.length - 1]) ? parts.pop() : undefined
    return graphView(show, parts.map(decodeURIComponent).join('/'), depth)
  },
  capture: () => captureView(show, navigate),
  tags: () => tagsView(show),
  tag: (arg) => tagView(show, arg),
  trash: () => trashView(show, navigate),
  jobs: (arg) => jobsView(show, arg || undefined, refresh),
  job: (arg) => jobView(show, arg, refresh),
  activity: () => activityView(show),
  sources: () => sourcesView(show, refresh),
  doctor: () => doctorView(show),
  tokens: () => tokensView(show, refresh),
  requests: (arg) => requestsView(show, arg === 'errors'),
  search: (arg) => runSearch(show, arg),
}

async function route() {
  leaveLive()
  const [, view, ...rest] = location.hash.split('/')
  const arg = rest.map(decodeURIComponent).join('/')
  for (const link of document.querySelectorAll('header nav a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#/${view}`)
  try {
    await (SCREENS[view] ?? (() => home(show)))(arg, rest)
    window.scrollTo(0, 0)
    main.focus({ preventScroll: true })
  } catch (err) {
    const failure = /** @type {Failure} */ (err)
    if (failure.status !== 401) showError(failure)
  }
}

/** Tokens and the request log belong to the server engine; the embedded brain has neither. */
async function start() {
  try {
    const health = await api('get_health')
    document.body.dataset.engine = health.engine
  } catch (err) {
    if (/** @type {Failure} */ (err).status === 401) return
  }
  await route()
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let typing
search.addEventListener('input', () => {
  clearTimeout(typing)
  typing = setTimeout(() => {
    leaveLive()
    runSearch(show, search.value).catch(showError)
  }, 150)
})
document.getElementById('signout')?.addEventListener('click', () => {
  token.clear()
  showLogin()
})
document.addEventListener('keydown', (event) => {
  const typingInField = document.activeElement instanceof HTMLTextAreaElement || document.activeElement instanceof HTMLInputElement
  if (event.key === '/' && !typingInField) {
    event.preventDefault()
    search.focus()
  } else if (event.key === 'Escape' && document.activeElement === search) {
    search.blur()
  }
})
window.addEventListener('hashchange', route)
void start()
