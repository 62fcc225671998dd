/**
 * bench/recall: in-process latency of recall on a generated brain of 10,000 pages, 2,000 of them
 * entities (people, companies, projects with aliases and timelines), on both engines. Turns mix
 * named entities (titles and aliases), small talk and code identifiers, half inside sessions.
 *
 *   node dist/bench/recall/run.js [pglite] [postgres] [--pages N] [--entities N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import { recall } from '../../src/memory/index.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const FIRST = ['Ada', 'Bram', 'Cleo', 'Dov', 'Esme', 'Fitz', 'Greta', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Lior', 'Mina', 'Nils', 'Odile', 'Pavel', 'Quinn', 'Rosa', 'Sven', 'Tove']
const SYLLABLES = ['mar', 'vel', 'quin', 'dor', 'fen', 'lith', 'grav', 'osk', 'tam', 'bryn', 'cal', 'wex', 'hol', 'pry', 'zan', 'ard']
const SMALL_TALK = ['Great, thanks. That covers it.', 'Monday already. Let me get coffee first.', 'What time is it in Tokyo right now?', 'Can you make that shorter?', 'ok']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function word(r: () => number, parts: number): string {
  const w = Array.from({ length: parts }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('')
  return w[0]!.toUpperCase() + w.slice(1)
}

interface Entity {
  slug: string
  title: string
  alias: string
}

function entities(count: number, r: () => number): Entity[] {
  const out: Entity[] = []
  for (let i = 0; i < count; i++) {
    const kind = i % 5 < 3 ? 'person' : i % 5 === 3 ? 'company' : 'project'
    const title = kind === 'person' ? `${FIRST[i % FIRST.length]} ${word(r, 3)}${i}` : `${word(r, 2)}${i} ${kind === 'company' ? 'Labs' : 'Plan'}`
    const alias = kind === 'person' ? FIRST[i % FIRST.length]! : `${title.split(' ')[0]}`
    out.push({ slug: `${kind}s/e${i}`, title, alias })
  }
  return out
}

function entityPage(e: Entity, i: number): string {
  const type = e.slug.split('/')[0]!.replace(/s$/, '')
  const timeline = Array.from({ length: 5 }, (_, k) => `- **2025-0${(k % 9) + 1}-1${k}** | Meeting ${k} with ${e.title} about the budget and the roadmap.`).join('\n')
  return `---\ntitle: ${e.title}\ntype: ${type}\naliases: [${e.alias}]\nsummary: Entity ${i}, met at the spring offsite; decides on budgets.\n---\n\n${e.title} leads the work on item ${i}.\n\n## Timeline\n\n${timeline}\n`
}

function writeVault(root: string, all: readonly Entity[], pages: number, r: () => number): void {
  for (const dir of ['persons', 'companys', 'projects', 'notes']) mkdirSync(join(root, dir), { recursive: true })
  all.forEach((e, i) => writeFileSync(join(root, `${e.slug}.md`), entityPage(e, i)))
  for (let i = 0; i < pages - all.length; i++) {
    const a = all[Math.floor(r() * all.length)]!
    const b = all[Math.floor(r() * all.length)]!
    writeFileSync(join(root, 'notes', `n${i}.md`), `# Note ${i}\n\nTalked with ${a.title} and ${b.title} about the plan. Follow up next week.\n`)
  }
}

function turns(all: readonly Entity[], count: number, r: () => number): Array<{ text: string; session: string | null }> {
  return Array.from({ length: count }, (_, i) => {
    const e = all[Math.floor(r() * all.length)]!
    const f = all[Math.floor(r() * all.length)]!
    const kind = i % 10
    const text =
      kind < 4
        ? `Prep my call with ${e.title} tomorrow, and what did ${f.title} say about pricing?`
        : kind < 6
          ? `Catch me up on ${e.alias.toLowerCase()} before the meeting.`
          : kind < 8
            ? SMALL_TALK[i % SMALL_TALK.length]!
            : `Why does \`parseConfig\` fail in PageRepository.load when ${e.title} runs it?`
    return { text, session: i % 2 === 0 ? `bench-${i % 20}` : null }
  })
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

async function measure(engine: BenchEngine, pages: number, entityCount: number): Promise<string> {
  const r = rng(7)
  const all = entities(entityCount, r)
  const root = mkdtempSync(join(tmpdir(), 'bench-recall-'))
  const { db, close } = await openBenchDatabase(engine)
  try {
    writeVault(root, all, pages, r)
    const started = performance.now()
    await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const importSeconds = (performance.now() - started) / 1000
    const work = turns(all, 600, r)
    await warm(db, work.slice(0, 50))
    const samples: number[] = []
    let injected = 0
    for (const turn of work.slice(50)) {
      const t0 = performance.now()
      const result = await recall(db, { text: turn.text, sessionId: turn.session })
      samples.push(performance.now() - t0)
      injected += result.tokens
    }
    return `| ${engine} | ${pages} pages, ${entityCount} entities (import ${importSeconds.toFixed(1)} s) | ${samples.length} turns | p50 ${percentile(samples, 0.5).toFixed(2)} ms | p95 ${percentile(samples, 0.95).toFixed(2)} ms | ${(injected / samples.length).toFixed(1)} tokens/turn |`
  } finally {
    await close()
    rmSync(root, { recursive: true, force: true })
  }
}

async function warm(db: Database, work: ReadonlyArray<{ text: string; session: string | null }>): Promise<void> {
  for (const turn of work) await recall(db, { text: turn.text, sessionId: turn.session })
}

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  return at >= 0 ? Number(process.argv[at + 1]) : fallback
}

const lines = ['| engine | brain | turns | p50 | p95 | injected |', '|---|---|---|---|---|---|']
try {
  for (const engine of enginesFromArgs(process.argv.slice(2))) lines.push(await measure(engine, flag('--pages', 10_000), flag('--entities', 2_000)))
} finally {
  stopBenchCluster()
}
process.stdout.write(`${lines.join('\n')}\n`)
