import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { packageRoot } from '../util/package-root.js'
import type { Route } from './types.js'

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

const FILES: Array<{ paths: string[]; file: string; type: string }> = [
  { paths: ['/ui', '/ui/'], file: 'index.html', type: 'text/html; charset=utf-8' },
  { paths: ['/ui/app.js'], file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { paths: ['/ui/app.css'], file: 'app.css', type: 'text/css; charset=utf-8' },
]

const cache = new Map<string, Buffer>()

async function load(file: string): Promise<Buffer> {
  let body = cache.get(file)
  if (!body) {
    body = await readFile(join(packageRoot(), 'ui', file))
    cache.set(file, body)
  }
  return body
}

export const uiRoutes: Route[] = FILES.flatMap(({ paths, file, type }) =>
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
