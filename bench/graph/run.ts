/**
 * bench/graph: a generated vault of 10,000 notes with about 100,000 links, on both engines. Import
 * cost with link extraction against the same vault with its link syntax removed (the same words,
 * nothing to link), then in-process p95 of backlinks and of a depth-3 graph walk.
 *
 *   node dist/bench/graph/run.js [pglite] [postgres] [--notes N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Database } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks, graphWalk } from '../../src/links/index.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const FOLDERS = ['people', 'projects', 'meetings', 'daily', 'concepts', 'writing', 'archive/2023', 'archive/2024', 'reading', 'ideas']
const WORDS = ['index', 'garden', 'route', 'schedule', 'joint', 'layout', 'plan', 'review', 'draft', 'question', 'measure', 'release']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

interface Note {
  folder: string
  name: string
}

function notes(count: number): Note[] {
  return Array.from({ length: count }, (_, i) => ({ folder: FOLDERS[i % FOLDERS.length]!, name: `Note ${String(i).padStart(5, '0')}` }))
}

/** A target skewed towards low numbers, so a few notes gather many backlinks. */
function target(all: readonly Note[], r: () => number): Note {
  return all[Math.floor(all.length * r() ** 2)]!
}

/** Ten links a note, of every form: by name, by path with shown text, heading, block, embed, markdown, property; 5 % to nothing. */
function linkText(all: readonly Note[], self: Note, r: () => number, k: number): string {
  const t = target(all, r)
  if (r() < 0.05) return `[[Missing ${Math.floor(r() * 500)}]]`
  switch (k % 6) {
    case 0:
      return `[[${t.name}]]`
    case 1:
      return `[[${t.folder}/${t.name}|see this]]`
    case 2:
      return `[[${t.name}#Details]]`
    case 3:
      return `[[${t.name}#^b${k}]]`
    case 4:
      return `![[${t.name}]]`
    default: {
      const up = self.folder
        .split('/')
        .map(() => '..')
        .join('/')
      return `[the ${WORDS[k % WORDS.length]}](${up}/${t.folder}/${encodeURIComponent(t.name)}.md)`
    }
  }
}

function noteText(all: readonly Note[], self: Note, r: () => number, withLinks: boolean): string {
  const lines = ['---', `related: "[[${target(all, r).name}]]"`, 'tags: [bench]', '---', `# ${self.name}`, '']
  for (let k = 0; k < 9; k++) {
    const word = WORDS[Math.floor(r() * WORDS.length)]
    lines.push(`We looked at the ${word} again, see ${linkText(all, self, r, k)} for the ${WORDS[k % WORDS.length]}.`)
  }
  lines.push('', '## Details', '', 'Some closing words on the matter. ^b1')
  const text = lines.join('\n')
  return withLinks ? text : text.replace(/!?\[\[([^\]|#]+)[^\]]*\]\]/g, '$1').replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
}

function writeVault(count: number, withLinks: boolean): string {
  const root = mkdtempSync(join(tmpdir(), `brain-bench-graph-${withLinks ? 'links' : 'plain'}-`))
  const all = notes(count)
  const r = rng(42)
  for (const note of all) {
    const path = join(root, note.folder, `${note.name}.md`)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, noteText(all, note, r, withLinks))
  }
  return root
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!
}

async function timed(times: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    await run(i)
    samples.push(performance.now() - started)
  }
  return { p50: [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!, p95: p95(samples) }
}

async function importSeconds(db: Database, root: string): Promise<{ seconds: number; files: number; failed: number }> {
  const started = performance.now()
  const result = await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
  return { seconds: (performance.now() - started) / 1000, files: result.created, failed: result.failed.length }
}

async function measure(engine: BenchEngine, linked: string, plain: string, count: number): Promise<string[]> {
  const out: string[] = []
  const bare = await openBenchDatabase(engine)
  const without = await importSeconds(bare.db, plain).finally(() => bare.close())
  const { db, close } = await openBenchDatabase(engine)
  try {
    const withLinks = await importSeconds(db, linked)
    const { rows } = await db.query<{ links: number; unresolved: number }>('SELECT count(*) AS links, count(*) FILTER (WHERE to_page_id IS NULL) AS unresolved FROM links')
    const extra = ((withLinks.seconds / without.seconds - 1) * 100).toFixed(1)
    out.push(`| ${engine} | import ${count} notes without links | ${without.files} files, ${without.failed} failed | ${without.seconds.toFixed(1)} s |`)
    out.push(
      `| ${engine} | import ${count} notes with links | ${withLinks.files} files, ${rows[0]!.links} links (${rows[0]!.unresolved} unresolved) | ${withLinks.seconds.toFixed(1)} s (+${extra} %) |`,
    )
    const slug = (i: number) => `${FOLDERS[((i * 7919) % count) % FOLDERS.length]}/note-${String((i * 7919) % count).padStart(5, '0')}`
    const hot = (i: number) => `${FOLDERS[i % FOLDERS.length]}/note-${String(i % FOLDERS.length).padStart(5, '0')}`
    await getBacklinks(db, slug(1))
    const back = await timed(300, (i) => getBacklinks(db, slug(i)))
    out.push(`| ${engine} | backlinks, 300 random notes | p50 ${back.p50.toFixed(2)} ms | p95 ${back.p95.toFixed(2)} ms |`)
    const backHot = await timed(50, (i) => getBacklinks(db, hot(i)))
    out.push(`| ${engine} | backlinks, the 10 most linked notes | p50 ${backHot.p50.toFixed(2)} ms | p95 ${backHot.p95.toFixed(2)} ms |`)
    const walk = await timed(100, (i) => graphWalk(db, { slug: slug(i), depth: 3 }))
    out.push(`| ${engine} | graph --depth 3 (both directions, limit 100), 100 notes | p50 ${walk.p50.toFixed(2)} ms | p95 ${walk.p95.toFixed(2)} ms |`)
    const wide = await timed(30, (i) => graphWalk(db, { slug: slug(i), depth: 3, direction: 'out', limit: 1000 }))
    out.push(`| ${engine} | graph --depth 3 --direction out --limit 1000, 30 notes | p50 ${wide.p50.toFixed(2)} ms | p95 ${wide.p95.toFixed(2)} ms |`)
  } finally {
    await close()
  }
  return out
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const at = args.indexOf('--notes')
  const count = at >= 0 ? Number(args[at + 1]) : 10_000
  const engines = enginesFromArgs(args.filter((a, i) => a !== '--notes' && (at < 0 || i !== at + 1)))
  const linked = writeVault(count, true)
  const plain = writeVault(count, false)
  const lines: string[] = []
  try {
    for (const engine of engines) lines.push(...(await measure(engine, linked, plain, count)))
  } finally {
    rmSync(linked, { recursive: true, force: true })
    rmSync(plain, { recursive: true, force: true })
    stopBenchCluster()
  }
  console.log('| engine | step | size | time |')
  console.log('|---|---|---|---|')
  for (const line of lines) console.log(line)
}

await main()
