import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { packageRoot } from '../util/package-root.js'
import type { Route } from './types.js'
import { UI_SESSION_COOKIE } from './ui-sessions.js'

/**
 * The web app's files under `/ui`: one page, one script, one stylesheet, shipped in the package
 * (`ui/`), nothing from elsewhere. The policy lets the page load only its own script and style
 * and talk only to this server, so text inside a page can never become code that runs.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' }

/** `/ui` and every script and stylesheet the package ships in `ui/`, each under `/ui/<name>`. */
function shippedFiles(): Array<{ paths: string[]; file: string; type: string }> {
  const assets = readdirSync(join(packageRoot(), 'ui'))
    .filter((name) => /^[a-z][a-z0-9-]*\.(js|css)$/.test(name))
    .map((name) => ({ paths: [`/ui/${name}`], file: name, type: TYPES[extname(name)] ?? 'application/octet-stream' }))
  return [{ paths: ['/ui', '/ui/'], file: 'index.html', type: 'text/html; charset=utf-8' }, ...assets]
}

const cache = new Map<string, Buffer>()

async function load(file: string): Promise<Buffer> {
  let body = cache.get(file)
  if (!body) {
    body = await readFile(join(packageRoot(), 'ui', file))
    cache.set(file, body)
  }
  return body
}

const fileRoutes: Route[] = shippedFiles().flatMap(({ paths, file, type }) =>
  paths.map((path): Route => ({
    method: 'GET',
    path,
    async handle({ res }) {
      const body = await load(file)
      res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': String(body.length),
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      })
      res.end(body)
    },
  })),
)

/**
 * `GET /ui/login?code=…`: the link `brain ui` prints. The one-time code becomes a session cookie
 * (HttpOnly, SameSite=Strict) and the browser goes on to the app; a used or expired code is refused.
 */
const uiLoginRoute: Route = {
  method: 'GET',
  path: '/ui/login',
  async handle({ res, url, deps }) {
    const code = url.searchParams.get('code') ?? ''
    const session = deps.uiSessions && code !== '' ? deps.uiSessions.redeem(code) : null
    if (!session) {
      const text = deps.uiSessions ? 'This sign-in link was used already or has expired. Run `brain ui` for a new one.\n' : 'Sign in with an access token on /ui.\n'
      res.writeHead(deps.uiSessions ? 401 : 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'", 'Cache-Control': 'no-store' })
      res.end(text)
      return
    }
    res.writeHead(303, {
      Location: '/ui',
      'Set-Cookie': `${UI_SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    })
    res.end()
  },
}

export const uiRoutes: Route[] = [...fileRoutes, uiLoginRoute]
