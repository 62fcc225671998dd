import type { TokenScope } from '../auth/index.js'

/** Escapes text for HTML content and attribute values; nothing a client supplies is written raw. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`)
}

const SCOPE_TEXT: Record<TokenScope, string> = {
  read: 'read your pages and search them',
  write: 'write, tag and delete pages, capture, sync and submit jobs',
  admin: 'watch operator feeds such as /admin/events',
}

/** Headers of every consent page: no framing, no scripts, no caching, no referrer leaking the code. */
export const CONSENT_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

interface ConsentView {
  clientName: string
  clientId: string
  redirectUri: string
  scopes: TokenScope[]
  /** The request's parameters, carried through the form unchanged. */
  params: Record<string, string>
  csrf: string
  /** Shown above the form after a refused owner credential. */
  problem?: string
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{background:#eee;padding:0 .2rem}.problem{color:#a00}button{margin-right:.5rem}'

/** The page on which the owner approves a client: every client-supplied string is escaped. */
export function consentPage(view: ConsentView): string {
  const hidden = Object.entries({ ...view.params, csrf: view.csrf })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n')
  const scopes = view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_TEXT[s])}</li>`).join('')
  const host = (() => {
    try {
      return new URL(view.redirectUri).host
    } catch {
      return view.redirectUri
    }
  })()
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Allow access to your brain?</title><style>${STYLE}</style></head>
<body>
<h1>Allow access to your brain?</h1>
<p>The client <strong>${escapeHtml(view.clientName)}</strong> (<code>${escapeHtml(view.clientId)}</code>) asks to:</p>
<ul>${scopes}</ul>
<p>After approval you return to <code>${escapeHtml(host)}</code>.</p>
${view.problem ? `<p class="problem">${escapeHtml(view.problem)}</p>` : ''}
<form method="post" action="/authorize">
${hidden}
<p><label>Owner token (an access token with the admin scope, from <code>brain auth create owner --scopes admin</code>):<br>
<input type="password" name="owner_token" autocomplete="current-password" required size="50"></label></p>
<p><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
</body></html>`
}

/** A page for a request that cannot be sent back to the client (unknown client or redirect URI). */
export function errorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorization request refused</title><style>${STYLE}</style></head>
<body><h1>Authorization request refused</h1><p class="problem">${escapeHtml(message)}</p></body></html>`
}
