/**
 * bench/faults: what one hostile writer costs everyone else. An embedded brain behind its
 * resident service holds a generated corpus; one MCP client (`brain serve` over stdio, through
 * the service) searches in a loop while another sends `put_page` with the worst front matter we
 * can build, over and over. Reported per payload: the reader's search p50/p95 against its idle
 * value, and the service's resident memory above idle.
 *
 *   node dist/bench/faults/run.js [--notes N] [--searches N]
 *
 * Targets: search p95 under attack ≤ 2× idle; service RSS ≤ 200 MB above idle.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { FRONTMATTER_LIMITS } from '../../src/util/frontmatter-doc.js'
import { packageRoot } from '../../src/util/package-root.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { percentile } from '../retrieval/metrics.js'

const BIN = join(packageRoot(), 'bin', 'brain.js')

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}

function page(frontmatter: string): string {
  return `---\n${frontmatter}\n---\n# Hostile\n\nA page whose front matter is as bad as it gets.\n`
}

/** The payloads, each the worst of its kind that we could build. */
function payloads(): Array<{ name: string; content: string }> {
  const names = 'abcdefghij'
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
  for (let i = 1; i < 9; i++)
    bomb.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    )
  // Just under the expansion limit (16-character strings weigh 19 bytes): accepted, stored, and
  // as large as an accepted block gets from a few hundred bytes.
  const side = Math.floor(Math.cbrt(FRONTMATTER_LIMITS.maxBytes / 20))
  const nearLimit = ['a: &a [' + Array(side).fill('"xxxxxxxxxxxxxxxx"').join(',') + ']', 'b: &b [' + Array(side).fill('*a').join(',') + ']', 'c: [' + Array(side).fill('*b').join(',') + ']']
  const flat: string[] = ['items:']
  while (flat.join('\n').length < FRONTMATTER_LIMITS.maxBytes - 64) flat.push(`  - item-${flat.length}`)
  const depth = FRONTMATTER_LIMITS.maxDepth - 2
  const deep = `deep: ${'['.repeat(depth)}1${']'.repeat(depth)}`
  const oversized = `blob: "${'x'.repeat(FRONTMATTER_LIMITS.maxBytes + 10)}"`
  return [
    { name: 'an ordinary small page (baseline)', content: '# Ordinary\n\nA note of a few words.\n' },
    { name: 'alias bomb (9^9 values)', content: page(bomb.join('\n')) },
    { name: `aliases just under the limit (${side ** 3 + side ** 2 + side} values)`, content: page(nearLimit.join('\n')) },
    { name: `${FRONTMATTER_LIMITS.maxBytes / 1024} KiB flat list`, content: page(flat.join('\n')) },
    { name: `nesting ${depth} deep`, content: page(deep) },
    { name: 'over the size limit', content: page(oversized) },
  ]
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : 0
}

async function client(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], env, stderr: 'ignore' })
  const c = new Client({ name: 'bench-faults', version: '1' })
  await c.connect(transport)
  return c
}

const QUERIES = ['project deadline', 'meeting notes', 'database migration', 'reading list', 'quarterly review', 'design decision']

async function searchLoop(reader: Client, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await reader.callTool({ name: 'search', arguments: { query: QUERIES[i % QUERIES.length], limit: 10 } })
    times.push(performance.now() - started)
  }
  return times
}

function watchRss(pid: number): { stop: () => number } {
  let peak = rssMb(pid)
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25)
  return { stop: () => (clearInterval(timer), peak) }
}

async function main(): Promise<void> {
  const notes = flag('--notes', 2000)
  const searches = flag('--searches', 200)
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-faults-'))
  const env = { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_EMBEDDING_PROVIDER: 'local' }
  const corpus = join(home, 'corpus')
  writeMarkdownCorpus(corpus, notes)
  const imported = spawnSync(process.execPath, [BIN, 'import', corpus, '--no-embed'], { env, encoding: 'utf8' })
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
  const servicePid = (JSON.parse(readFileSync(join(home, 'service.json'), 'utf8')) as { pid: number }).pid
  const reader = await client(env)
  const writer = await client(env)
  try {
    await searchLoop(reader, 20)
    const idleRss = watchRss(servicePid)
    const idle = await searchLoop(reader, searches)
    const idlePeak = idleRss.stop()
    const idleP95 = percentile(idle, 0.95)
    console.log(`notes ${notes}, searches per phase ${searches}; service pid ${servicePid}`)
    console.log(`| payload | bytes | outcome | search p50 ms | search p95 ms | p95 / idle | service RSS peak MB | above idle MB |`)
    console.log(`|---|---|---|---|---|---|---|---|`)
    console.log(`| none (idle) | – | – | ${percentile(idle, 0.5).toFixed(1)} | ${idleP95.toFixed(1)} | 1.00 | ${idlePeak.toFixed(0)} | 0 |`)
    for (const payload of payloads()) {
      let attacking = true
      let outcome = ''
      let puts = 0
      const rss = watchRss(servicePid)
      const attack = (async () => {
        while (attacking) {
          const result = (await writer.callTool({ name: 'put_page', arguments: { slug: `hostile/p${puts++}`, content: payload.content, no_embed: true } })) as {
            isError?: boolean
            content?: Array<{ text?: string }>
          }
          const text = result.content?.[0]?.text ?? ''
          outcome = result.isError ? (/"code":\s*"([^"]+)"/.exec(text)?.[1] ?? 'error') : 'stored'
        }
      })()
      const busy = await searchLoop(reader, searches)
      attacking = false
      await attack
      const peak = rss.stop()
      const p95 = percentile(busy, 0.95)
      console.log(
        `| ${payload.name} | ${Buffer.byteLength(payload.content)} | ${outcome} ×${puts} | ${percentile(busy, 0.5).toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / idleP95).toFixed(2)} | ${peak.toFixed(0)} | ${(peak - idlePeak).toFixed(0)} |`,
      )
    }
  } finally {
    await reader.close()
    await writer.close()
    spawnSync(process.execPath, [BIN, 'service', 'stop'], { env })
    rmSync(home, { recursive: true, force: true })
  }
}

await main()
