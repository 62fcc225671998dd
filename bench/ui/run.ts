/**
 * bench/ui: the web app's costs at 10,000 pages. Server time of search-as-you-type (every prefix
 * of a typed query through POST /api/search, as the app sends it), time to first render of a page
 * view in headless Chromium (a cold load of the app and a warm move between pages), and the size
 * of the first load, gzipped.
 *
 *   node dist/bench/ui/run.js [pglite] [postgres] [--pages N]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import puppeteer from 'puppeteer-core'
import { loadConfig } from '../../src/config/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { startWebApp } from '../../src/service/web-app.js'
import { packageRoot } from '../../src/util/package-root.js'
import { silentLogger } from '../../src/util/logger.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

/** What a person might type, letter by letter: words of the corpus and a two-word query. */
const TYPED = ['gardening', 'dovetail joint', 'typescript', 'exposure', 'schedule', 'sourdough', 'monthly plan', 'climbing']

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

function firstLoadBytes(): { files: number; raw: number; gzip: number } {
  const dir = join(packageRoot(), 'ui')
  const names = readdirSync(dir).filter((n) => /\.(js|css|html)$/.test(n))
  let raw = 0
  let gzip = 0
  for (const name of names) {
    const body = readFileSync(join(dir, name))
    raw += body.length
    gzip += gzipSync(body, { level: 9 }).length
  }
  return { files: names.length, raw, gzip }
}

async function measure(engine: BenchEngine, pages: number): Promise<void> {
  const { db, close } = await openBenchDatabase(engine)
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-ui-'))
  try {
    writeMarkdownCorpus(root, pages)
    const started = performance.now()
    await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const importSeconds = (performance.now() - started) / 1000
    const config = loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-bench-ui-home-')) } })
    const app = await startWebApp(db, config, silentLogger, { port: 0, version: 'bench' })
    try {
      const login = await fetch(app.signInUrl(), { redirect: 'manual' })
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
      const call = async (name: string, args: unknown) => {
        const t0 = performance.now()
        const response = await fetch(`${app.base}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify(args) })
        await response.arrayBuffer()
        if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`)
        return performance.now() - t0
      }
      for (const word of TYPED.slice(0, 2)) await call('search', { query: word, limit: 20 })
      const times: number[] = []
      const slowest: Array<[string, number]> = []
      for (const text of TYPED) {
        for (let n = 2; n <= text.length; n++) {
          const ms = await call('search', { query: text.slice(0, n), limit: 20 })
          times.push(ms)
          slowest.push([text.slice(0, n), Math.round(ms)])
        }
      }
      slowest.sort((a, b) => b[1] - a[1])
      const { rows } = await db.query<{ slug: string }>('SELECT slug FROM pages ORDER BY id LIMIT 21')
      const render = await firstRender(
        app.base,
        app.signInUrl(),
        rows.map((r) => r.slug),
      )
      console.log(
        JSON.stringify({
          engine,
          pages,
          import_seconds: Number(importSeconds.toFixed(1)),
          search_requests: times.length,
          search_p50_ms: Number(percentile(times, 50).toFixed(1)),
          search_p95_ms: Number(percentile(times, 95).toFixed(1)),
          search_max_ms: Number(Math.max(...times).toFixed(1)),
          slowest: slowest.slice(0, 4).map(([q, ms]) => `${q}: ${ms} ms`),
          ...render,
        }),
      )
    } finally {
      await app.close()
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
    await close()
  }
}

/** Cold: a fresh tab loads the app at a page's address; warm: moving to another page in the app. */
async function firstRender(base: string, signIn: string, slugs: string[]): Promise<{ cold_render_ms: number; warm_render_p50_ms: number; warm_render_p95_ms: number }> {
  const executablePath = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim()
  const browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  try {
    const page = await browser.newPage()
    await page.goto(signIn)
    await page.waitForSelector('.results a.result')
    const fresh = await browser.newPage()
    const t0 = performance.now()
    await fresh.goto(`${base}/ui#/page/${encodeURIComponent(slugs[0]!)}`)
    await fresh.waitForSelector('#title')
    const cold = performance.now() - t0
    const warm: number[] = []
    for (const slug of slugs.slice(1)) {
      const t1 = performance.now()
      await fresh.evaluate(`location.hash = ${JSON.stringify(`#/page/${encodeURIComponent(slug)}`)}`)
      await fresh.waitForFunction(`document.querySelector('#title') !== null && (document.querySelector('.slug')?.textContent ?? '').startsWith(${JSON.stringify(slug)})`)
      warm.push(performance.now() - t1)
    }
    return { cold_render_ms: Math.round(cold), warm_render_p50_ms: Math.round(percentile(warm, 50)), warm_render_p95_ms: Math.round(percentile(warm, 95)) }
  } finally {
    await browser.close()
  }
}

const args = process.argv.slice(2)
const pagesAt = args.indexOf('--pages')
const pages = pagesAt >= 0 ? Number(args[pagesAt + 1]) : 10_000
console.log(JSON.stringify({ first_load: firstLoadBytes() }))
try {
  for (const engine of enginesFromArgs(args.filter((a, i) => a !== '--pages' && (pagesAt < 0 || i !== pagesAt + 1)))) await measure(engine, pages)
} finally {
  stopBenchCluster()
}
