/**
 * bench/memory: how much of a conversation's evidence a context pack holds, on LoCoMo's ten long
 * conversations. One page per dialogue turn (titled by conversation, turn and session date, dated
 * by its session), one source per conversation; every third question (category 5, the
 * unanswerable ones, left out) gets a pack at 1,000 and 2,000 tokens restricted to its
 * conversation's source, built in-process as `brain context` builds it (keyword search; no model).
 * recall_all: every evidence turn in the pack; recall_any: at least one. Reported per LoCoMo
 * category, for the first five conversations (development), the last five (held out) and all ten.
 *
 *   node dist/bench/memory/run.js <path/to/locomo10.json> [pglite|postgres] [--budgets 1000,2000] [--json out.json]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildContextPack } from '../../src/answers/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import type { SearchDeps } from '../../src/search/index.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { CATEGORIES, readLocomo, turnFile, turnOfTitle, turnPage, type Conversation } from './locomo.js'

interface Outcome {
  conversation: number
  category: number
  all: boolean
  any: boolean
  tokens: number
  ms: number
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0
}

const sourceOf = (conversation: Conversation): string => conversation.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')

function row(label: string, outcomes: Outcome[]): string {
  const mean = (f: (o: Outcome) => number): number => outcomes.reduce((s, o) => s + f(o), 0) / Math.max(1, outcomes.length)
  const byCategory = [1, 2, 3, 4].map((c) => {
    const of = outcomes.filter((o) => o.category === c)
    return of.length === 0 ? '-' : (of.filter((o) => o.all).length / of.length).toFixed(2)
  })
  const cells = [
    label,
    outcomes.length,
    mean((o) => (o.all ? 1 : 0)).toFixed(2),
    mean((o) => (o.any ? 1 : 0)).toFixed(2),
    ...byCategory,
    mean((o) => o.tokens).toFixed(0),
    percentile(
      outcomes.map((o) => o.ms),
      0.5,
    ).toFixed(1),
    percentile(
      outcomes.map((o) => o.ms),
      0.95,
    ).toFixed(1),
  ]
  return `| ${cells.join(' | ')} |\n`
}

async function measure(engine: BenchEngine, conversations: Conversation[], root: string, budgets: number[]): Promise<Record<string, Outcome[]>> {
  const { db, close } = await openBenchDatabase(engine)
  const results: Record<string, Outcome[]> = {}
  try {
    const started = performance.now()
    for (const conversation of conversations) {
      const source = sourceOf(conversation)
      const folder = join(root, source)
      mkdirSync(folder, { recursive: true })
      for (const turn of conversation.turns) writeFileSync(join(folder, turnFile(turn)), turnPage(conversation.id, turn))
      await db.query(`INSERT INTO sources (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [source])
      await importFolder(db, folder, { strategy: 'markdown', sourceId: source, embedder: null })
    }
    const pages = conversations.reduce((s, c) => s + c.turns.length, 0)
    process.stdout.write(`${engine}: ${pages} pages in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
    const search: SearchDeps = { db, settings: { excludeRaw: null, sourceBoostRaw: null } }
    for (const budget of budgets) {
      const outcomes: Outcome[] = []
      for (const [index, conversation] of conversations.entries()) {
        const source = sourceOf(conversation)
        const asked = conversation.questions.filter((q, i) => i % 3 === 0 && q.category !== 5 && q.evidence.length > 0)
        for (const q of asked) {
          const begun = performance.now()
          const pack = await buildContextPack({ search }, q.question, { budget, source })
          const ms = performance.now() - begun
          const held = new Set(pack.items.map((i) => turnOfTitle(i.title)))
          const found = q.evidence.filter((e) => held.has(e)).length
          outcomes.push({ conversation: index, category: q.category, all: found === q.evidence.length, any: found > 0, tokens: pack.tokens, ms })
        }
      }
      results[`${engine}:${budget}`] = outcomes
      const half = Math.ceil(conversations.length / 2)
      process.stdout.write(`\n${engine}, budget ${budget}\n\n`)
      process.stdout.write(`| set | questions | recall_all | recall_any | ${[1, 2, 3, 4].map((c) => CATEGORIES[c]).join(' | ')} | mean tokens | p50 ms | p95 ms |\n`)
      process.stdout.write(`|${' --- |'.repeat(11)}\n`)
      process.stdout.write(
        row(
          'dev (1-5)',
          outcomes.filter((o) => o.conversation < half),
        ),
      )
      process.stdout.write(
        row(
          'held-out (6-10)',
          outcomes.filter((o) => o.conversation >= half),
        ),
      )
      process.stdout.write(row('all ten', outcomes))
    }
  } finally {
    await close()
  }
  return results
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const path = args.find((a) => a.endsWith('.json') && a !== option(args, '--json'))
  if (path === undefined) throw new Error('Give the path of LoCoMo’s data/locomo10.json.')
  const budgets = (option(args, '--budgets') ?? '1000,2000').split(',').map(Number)
  const conversations = readLocomo(path)
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-memory-'))
  const all: Record<string, Outcome[]> = {}
  try {
    for (const engine of enginesFromArgs(args.includes('postgres') ? args : ['pglite'])) Object.assign(all, await measure(engine, conversations, root, budgets))
  } finally {
    rmSync(root, { recursive: true, force: true })
    stopBenchCluster()
  }
  const out = option(args, '--json')
  if (out !== undefined) writeFileSync(out, JSON.stringify(all))
}

await main()
