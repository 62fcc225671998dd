/**
 * bench/memory: how much of a conversation's evidence a context pack holds, on LoCoMo's ten long
 * conversations. One page per dialogue turn (titled by conversation, turn and session date, dated
 * by its session), one source per conversation; every third question (category 5, the
 * unanswerable ones, left out) gets a pack at 1,000 and 2,000 tokens restricted to its
 * conversation's source, built in-process as `brain context` builds it. Without `--embed` no
 * chunk has a vector and the pack runs on keyword search alone; with `--embed local` every chunk
 * is embedded by the shipped offline model, as a brain built the README way is, and the pack's
 * search is hybrid with the question embedded by the same model (see brain.ts for where such a
 * brain is kept between runs; `--search keyword` searches it without its vectors). recall_all: every evidence turn in the pack; recall_any: at least
 * one. Reported per LoCoMo category, for the first five conversations (development), the last
 * five (held out) and all ten; `--set dev` asks the development questions only.
 *
 *   node dist/bench/memory/run.js <path/to/locomo10.json> [pglite|postgres] [--budgets 1000,2000]
 *     [--embed local [--search keyword]] [--brain-dir DIR] [--set dev|held-out|all] [--json out.json]
 */
import { writeFileSync } from 'node:fs'
import { buildContextPack } from '../../src/answers/index.js'
import { disposeLocalEmbeddings } from '../../src/embedding/index.js'
import type { SearchDeps } from '../../src/search/index.js'
import { enginesFromArgs, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { openMemoryBrain, sourceOf } from './brain.js'
import { CATEGORIES, readLocomo, turnOfTitle, type Conversation } from './locomo.js'

interface Outcome {
  conversation: number
  category: number
  all: boolean
  any: boolean
  tokens: number
  ms: number
  question: string
  evidence: string[]
  held: string[]
}

type QuestionSet = 'dev' | 'held-out' | 'all'

interface RunOptions {
  path: string
  budgets: number[]
  embed: 'local' | null
  /** `keyword`: search an embedded brain without its vectors, for comparison. */
  search: 'keyword' | 'hybrid'
  brainDir?: string
  set: QuestionSet
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0
}

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

async function measure(engine: BenchEngine, conversations: Conversation[], options: RunOptions): Promise<Record<string, Outcome[]>> {
  const log = (line: string): void => void process.stdout.write(`${line}\n`)
  const brain = await openMemoryBrain(conversations, { engine, embed: options.embed, path: options.path, log, ...(options.brainDir !== undefined ? { brainDir: options.brainDir } : {}) })
  const db = brain.db
  const half = Math.ceil(conversations.length / 2)
  const asks = (index: number): boolean => options.set === 'all' || (options.set === 'dev') === index < half
  const results: Record<string, Outcome[]> = {}
  try {
    const search: SearchDeps = { db, settings: { excludeRaw: null, sourceBoostRaw: null }, ...(brain.embedder !== null && options.search === 'hybrid' ? { embedder: brain.embedder } : {}) }
    for (const budget of options.budgets) {
      const outcomes: Outcome[] = []
      for (const [index, conversation] of conversations.entries()) {
        if (!asks(index)) continue
        const source = sourceOf(conversation)
        const asked = conversation.questions.filter((q, i) => i % 3 === 0 && q.category !== 5 && q.evidence.length > 0)
        for (const q of asked) {
          const begun = performance.now()
          const pack = await buildContextPack({ search }, q.question, { budget, source })
          const ms = performance.now() - begun
          const held = pack.items.map((i) => turnOfTitle(i.title)).filter((t): t is string => t !== null)
          const found = q.evidence.filter((e) => held.includes(e)).length
          outcomes.push({ conversation: index, category: q.category, all: found === q.evidence.length, any: found > 0, tokens: pack.tokens, ms, question: q.question, evidence: q.evidence, held })
        }
      }
      results[`${engine}:${budget}`] = outcomes
      process.stdout.write(`\n${engine}, budget ${budget}\n\n`)
      process.stdout.write(`| set | questions | recall_all | recall_any | ${[1, 2, 3, 4].map((c) => CATEGORIES[c]).join(' | ')} | mean tokens | p50 ms | p95 ms |\n`)
      process.stdout.write(`|${' --- |'.repeat(11)}\n`)
      const sets: Array<[string, Outcome[]]> = [
        ['dev (1-5)', outcomes.filter((o) => o.conversation < half)],
        ['held-out (6-10)', outcomes.filter((o) => o.conversation >= half)],
        ['all ten', outcomes],
      ]
      for (const [label, of] of options.set === 'all' ? sets : sets.slice(0, 2)) if (of.length > 0) process.stdout.write(row(label, of))
    }
  } finally {
    await brain.close()
  }
  return results
}

function runOptions(args: string[]): RunOptions {
  const path = args.find((a) => a.endsWith('.json') && a !== option(args, '--json'))
  if (path === undefined) throw new Error('Give the path of LoCoMo’s data/locomo10.json.')
  const embed = option(args, '--embed') ?? null
  if (embed !== null && embed !== 'local') throw new Error(`--embed takes local, not ${embed}.`)
  const set = option(args, '--set') ?? 'all'
  if (set !== 'dev' && set !== 'held-out' && set !== 'all') throw new Error(`--set takes dev, held-out or all, not ${set}.`)
  const search = option(args, '--search') ?? 'hybrid'
  if (search !== 'keyword' && search !== 'hybrid') throw new Error(`--search takes keyword or hybrid, not ${search}.`)
  const brainDir = option(args, '--brain-dir')
  return { path, budgets: (option(args, '--budgets') ?? '1000,2000').split(',').map(Number), embed, search, set, ...(brainDir !== undefined ? { brainDir } : {}) }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const options = runOptions(args)
  const conversations = readLocomo(options.path)
  const all: Record<string, Outcome[]> = {}
  try {
    for (const engine of enginesFromArgs(args.includes('postgres') ? args : ['pglite'])) Object.assign(all, await measure(engine, conversations, options))
  } finally {
    stopBenchCluster()
    await disposeLocalEmbeddings()
  }
  const out = option(args, '--json')
  if (out !== undefined) writeFileSync(out, JSON.stringify(all))
}

await main()
