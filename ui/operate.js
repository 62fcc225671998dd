// Operating the brain: jobs (live), workers and supervisor events (live), sources with sync now,
// doctor and embedding coverage, and on the server engine the access tokens and request log.

import { api, subscribe } from './api.js'
import { el, table, when } from './dom.js'

// The rows of the operations' JSON (and of the live events) that these screens read.
/** @typedef {import('./dom.js').Show} Show */
/** @typedef {import('./dom.js').Refresh} Refresh */
/** @typedef {{ id: string, name: string, status: string, attempts: number, createdAt: string, startedAt?: string, completedAt?: string, data?: unknown, progress?: unknown, result?: unknown, error?: unknown }} Job */
/** @typedef {{ kind: string, pid: number, host: string, names: string[], concurrency: number, active_jobs: unknown[], silent_seconds: number }} Worker */
/** @typedef {{ supervisor: string, event: string, pid?: number, ts: string }} SupervisorEvent */

/** @type {(() => void) | null} */
let stopStream = null

/** Screens that follow the live stream register here; leaving the screen stops it. */
export function leaveLive() {
  stopStream?.()
  stopStream = null
}

/** @param {(event: string, data: any) => void} handler */
function live(handler) {
  leaveLive()
  stopStream = subscribe(handler)
}

/**
 * @param {Job} job
 * @param {Refresh} refresh
 */
function jobRow(job, refresh) {
  const actions = el(
    'td',
    {},
    job.status === 'dead'
      ? el('button', {
          type: 'button',
          class: 'retry',
          text: 'Retry',
          onclick: async () => {
            await api('retry_job', { id: job.id })
            refresh()
          },
        })
      : null,
    job.status === 'waiting' || job.status === 'active'
      ? el('button', {
          type: 'button',
          class: 'cancel',
          text: 'Cancel',
          onclick: async () => {
            await api('cancel_job', { id: job.id })
            refresh()
          },
        })
      : null,
  )
  return el(
    'tr',
    { 'data-job': job.id },
    el('td', {}, el('a', { href: `#/job/${job.id}`, text: job.id.slice(0, 8) })),
    el('td', { text: job.name }),
    el('td', { class: 'status', text: job.status }),
    el('td', { text: String(job.attempts) }),
    el('td', { text: when(job.createdAt) }),
    actions,
  )
}

/**
 * @param {Show} show
 * @param {string | undefined} status
 * @param {Refresh} refresh
 */
export async function jobsView(show, status, refresh) {
  const { jobs } = await api('list_jobs', { limit: 100, ...(status ? { status } : {}) })
  const filters = el(
    'p',
    { class: 'filters' },
    ['', 'waiting', 'active', 'completed', 'dead'].flatMap((s) => [el('a', { href: `#/jobs/${s}`, 'aria-current': s === (status ?? '') ? 'page' : null, text: s || 'all' }), ' ']),
  )
  const body = el(
    'tbody',
    {},
    jobs.map((/** @type {Job} */ job) => jobRow(job, refresh)),
  )
  show(
    el('h1', { text: 'Jobs' }),
    filters,
    el('p', { class: 'muted', id: 'live', text: 'Live: new jobs and changes appear as they happen.' }),
    el(
      'table',
      { class: 'grid jobs' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['id', 'name', 'status', 'attempts', 'created', ''].map((h) => el('th', { text: h })),
        ),
      ),
      body,
    ),
  )
  live((event, /** @type {Job} */ job) => {
    if (event !== 'job' || (status && job.status !== status)) return
    const row = jobRow(job, refresh)
    const existing = body.querySelector(`tr[data-job="${CSS.escape(job.id)}"]`)
    if (existing) existing.replaceWith(row)
    else body.prepend(row)
  })
}

/**
 * @param {Show} show
 * @param {string} id
 * @param {Refresh} refresh
 */
export async function jobView(show, id, refresh) {
  const job = await api('get_job', { id })
  const field = (/** @type {string} */ name, /** @type {unknown} */ value) =>
    el('tr', {}, el('th', { text: name }), el('td', {}, el('pre', { text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) })))
  show(
    el('h1', { text: `Job ${job.name}` }),
    el(
      'p',
      {},
      el('a', { href: '#/jobs', text: 'All jobs' }),
      ' ',
      job.status === 'dead'
        ? el('button', {
            type: 'button',
            class: 'retry',
            text: 'Retry',
            onclick: async () => {
              await api('retry_job', { id })
              refresh()
            },
          })
        : null,
      job.status === 'waiting' || job.status === 'active'
        ? el('button', {
            type: 'button',
            class: 'cancel',
            text: 'Cancel',
            onclick: async () => {
              await api('cancel_job', { id })
              refresh()
            },
          })
        : null,
    ),
    el(
      'table',
      { class: 'fm job' },
      field('id', job.id),
      field('status', job.status),
      field('attempts', String(job.attempts)),
      field('created', when(job.createdAt)),
      field('started', when(job.startedAt)),
      field('completed', when(job.completedAt)),
      field('data', job.data),
      job.progress ? field('progress', job.progress) : null,
      job.result !== null && job.result !== undefined ? field('result', job.result) : null,
      job.error ? field('error', job.error) : null,
    ),
  )
}

/** @param {Show} show */
export async function activityView(show) {
  const [{ workers }, { events }] = await Promise.all([api('list_workers'), api('list_supervisor_events', { limit: 100 })])
  const workerBody = el('tbody')
  const drawWorkers = (/** @type {Worker[]} */ list) =>
    workerBody.replaceChildren(
      ...list.map((w) =>
        el(
          'tr',
          {},
          el('td', { text: w.kind }),
          el('td', { text: `${w.pid} on ${w.host}` }),
          el('td', { text: w.names.join(', ') }),
          el('td', { text: String(w.concurrency) }),
          el('td', { text: String(w.active_jobs.length) }),
          el('td', { text: `${w.silent_seconds}s ago` }),
        ),
      ),
    )
  drawWorkers(workers)
  const feed = el('ol', { class: 'feed', id: 'feed', reversed: true })
  const line = (/** @type {string} */ kind, /** @type {string} */ text, /** @type {string} */ ts) =>
    el('li', { class: kind }, el('span', { class: 'muted', text: `${when(ts)} ` }), el('strong', { text: kind }), ` ${text}`)
  for (const e of /** @type {SupervisorEvent[]} */ (events.slice().reverse())) feed.append(line('supervisor', `${e.supervisor}: ${e.event}${e.pid ? ` (pid ${e.pid})` : ''}`, e.ts))
  show(
    el('h1', { text: 'Activity' }),
    el('h2', { text: 'Workers' }),
    el(
      'table',
      { class: 'grid' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['kind', 'process', 'jobs', 'concurrency', 'active', 'heartbeat'].map((h) => el('th', { text: h })),
        ),
      ),
      workerBody,
    ),
    el('h2', { text: 'Events' }),
    el('p', { class: 'muted', text: 'Supervisor events, ingestion and job changes, live.' }),
    feed,
  )
  live((event, data) => {
    if (event === 'workers') drawWorkers(data.workers)
    else if (event === 'supervisor') feed.prepend(line('supervisor', `${data.supervisor}: ${data.event}${data.pid ? ` (pid ${data.pid})` : ''}`, data.ts))
    else if (event === 'ingest') feed.prepend(line('ingest', `${data.token_name}: ${data.bytes} bytes → ${data.slug ?? data.source_id}${data.duplicate ? ' (duplicate)' : ''}`, data.received_at))
    else if (event === 'job') feed.prepend(line('job', `${data.name} ${data.id.slice(0, 8)} ${data.status}`, data.completedAt ?? data.createdAt))
    while (feed.children.length > 300) feed.lastChild?.remove()
  })
}

/**
 * @param {Show} show
 * @param {Refresh} refresh
 */
export async function sourcesView(show, refresh) {
  const { sources } = await api('list_sources')
  const status = el('p', { id: 'sources-status', role: 'status', class: 'muted' })
  const rows = sources.map((/** @type {{ id: string, name?: string, local_path?: string, pages?: number, last_commit?: string, updated_at?: string }} */ s) =>
    el(
      'tr',
      { 'data-source': s.id },
      el('td', { text: s.id }),
      el('td', { text: s.name ?? '' }),
      el('td', { text: s.local_path ?? '—' }),
      el('td', { text: String(s.pages ?? '') }),
      el('td', { text: s.last_commit ? `${String(s.last_commit).slice(0, 10)} · ${when(s.updated_at)}` : 'never synced' }),
      el(
        'td',
        {},
        s.local_path
          ? el('button', {
              type: 'button',
              class: 'sync',
              text: 'Sync now',
              onclick: async (/** @type {MouseEvent} */ event) => {
                const button = /** @type {HTMLButtonElement} */ (event.target)
                button.disabled = true
                status.className = 'muted'
                status.textContent = `Syncing ${s.id}…`
                try {
                  const result = await api('sync', { source: s.id, no_embed: false })
                  // The refreshed screen has a new status line; the outcome goes there so it stays visible.
                  await refresh()
                  const fresh = document.getElementById('sources-status')
                  if (fresh) fresh.textContent = `Synced ${s.id}: ${['added', 'modified', 'deleted'].map((k) => `${result[k] ?? 0} ${k}`).join(', ')}.`
                } catch (caught) {
                  const err = /** @type {import('./dom.js').Failure} */ (caught)
                  status.className = 'error'
                  status.textContent = `${err.message}${err.hint ? ` — ${err.hint}` : ''}`
                  button.disabled = false
                }
              },
            })
          : null,
      ),
    ),
  )
  show(el('h1', { text: 'Sources' }), status, table(['id', 'name', 'folder', 'pages', 'last sync (commit · when)', ''], rows, { id: 'sources' }))
}

/** @param {Show} show */
export async function doctorView(show) {
  const [report, stats] = await Promise.all([api('run_doctor'), api('get_stats')])
  const coverage = stats.chunks ? Math.round((100 * stats.embedded_chunks) / stats.chunks) : 100
  show(
    el('h1', { text: `Doctor: ${report.status}` }),
    el('p', { id: 'coverage', text: `Embedding coverage: ${stats.embedded_chunks} of ${stats.chunks} chunks (${coverage} %).` }),
    el('meter', { min: 0, max: 100, value: coverage, 'aria-label': 'Embedding coverage' }),
    table(
      ['check', 'status', 'message'],
      report.checks.map((/** @type {{ name: string, status: string, message: string }} */ c) =>
        el('tr', { class: `check ${c.status}` }, el('td', { text: c.name }), el('td', { class: 'status', text: c.status }), el('td', { text: c.message })),
      ),
      { id: 'checks' },
    ),
    el('h2', { text: 'Jobs' }),
    el('p', { text: ['waiting', 'active', 'completed', 'dead'].map((s) => `${stats.jobs?.[s] ?? 0} ${s}`).join(' · ') }),
  )
}

/**
 * @param {Show} show
 * @param {Refresh} refresh
 */
export async function tokensView(show, refresh) {
  const { tokens } = await api('list_tokens')
  const name = el('input', { id: 'token-name', placeholder: 'name', 'aria-label': 'Token name', required: true })
  const scopes = ['read', 'write', 'admin'].map((s) => el('label', {}, el('input', { type: 'checkbox', value: s, checked: s !== 'admin' }), ` ${s} `))
  const created = el('div', { id: 'created-token', role: 'status' })
  const form = el(
    'form',
    {
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault()
        const chosen = scopes
          // Each label starts with its checkbox.
          .map((l) => /** @type {HTMLInputElement} */ (l.firstChild))
          .filter((box) => box.checked)
          .map((box) => box.value)
        const made = await api('create_token', { name: name.value.trim(), scopes: chosen })
        await refresh()
        document.getElementById('created-token')?.replaceChildren(el('p', { text: 'Copy this token now; it is not shown again:' }), el('pre', { class: 'secret', text: made.token }))
      },
    },
    name,
    ' ',
    scopes,
    el('button', { type: 'submit', text: 'Create' }),
  )
  const rows = tokens.map((/** @type {{ id: number, name: string, scopes: string[], created_at: string, revoked_at?: string, last_used_at?: string }} */ t) =>
    el(
      'tr',
      { 'data-token': t.name },
      el('td', { text: String(t.id) }),
      el('td', { text: t.name }),
      el('td', { text: t.scopes.join(', ') }),
      el('td', { text: when(t.created_at) }),
      el('td', { text: t.revoked_at ? `revoked ${when(t.revoked_at)}` : t.last_used_at ? when(t.last_used_at) : 'never used' }),
      el(
        'td',
        {},
        t.revoked_at
          ? null
          : el('button', {
              type: 'button',
              class: 'revoke',
              text: 'Revoke',
              onclick: async () => {
                if (!confirm(`Revoke ${t.name}? Requests with it fail from now on.`)) return
                await api('revoke_token', { token: String(t.id) })
                refresh()
              },
            }),
      ),
    ),
  )
  show(el('h1', { text: 'Access tokens' }), form, created, table(['id', 'name', 'scopes', 'created', 'last used', ''], rows, { id: 'tokens' }))
}

/**
 * @param {Show} show
 * @param {boolean} errorsOnly
 */
export async function requestsView(show, errorsOnly) {
  const { requests } = await api('list_requests', { limit: 200, ...(errorsOnly ? { errors_only: true } : {}) })
  show(
    el('h1', { text: 'Request log' }),
    el('p', {}, el('a', { href: '#/requests', text: 'all' }), ' ', el('a', { href: '#/requests/errors', text: 'errors only' })),
    table(
      ['when', 'token', 'route', 'tool', 'status', 'error', 'ms'],
      requests.map(
        (
          /** @type {{ status: number, created_at: string, token_name?: string, oauth_client_id?: string, method?: string, route: string, tool_name?: string, error_code?: string, duration_ms: number | null }} */ r,
        ) =>
          el(
            'tr',
            { class: r.status >= 400 ? 'failed' : '' },
            el('td', { text: when(r.created_at) }),
            el('td', { text: r.token_name ?? r.oauth_client_id ?? '—' }),
            el('td', { text: `${r.method ?? ''} ${r.route}` }),
            el('td', { text: r.tool_name ?? '' }),
            el('td', { text: String(r.status) }),
            el('td', { text: r.error_code ?? '' }),
            el('td', { text: r.duration_ms === null ? '' : String(r.duration_ms) }),
          ),
      ),
      { id: 'requests' },
    ),
  )
}
