/**
 * bench/brainbench: scores brain's recall and remember operations against a checkout of the public
 * BrainBench memory-conformance suite (its fixtures and sealed gold are read from --suite, never
 * kept in this repository). Each fixture gets a fresh embedded brain seeded with its pages per
 * source; every user turn goes through the `recall` operation from the catalogue with one session
 * id per fixture conversation, and write-back / continuity writers go through `remember`.
 *
 * Cells are per suite, as the reference reports them. Tokens are counted two ways: the suite's
 * own estimate (ceil(chars / 4) of the text the Claude Code hook would inject, header included)
 * and recall's `tokens` (the project's tokenizer, excerpts only). Write-back runs twice: with the
 * gold fact's entity as `about`, and with `about` left out so remember finds the entities itself.
 * `--reference <result.json>` (the reference runner's `--json --out` file) adds its Claude Code row.
 *
 *   node dist/bench/brainbench/run.js --suite <dir> [--include-holdout] [--reference file] [--json] [--out file]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { recallContext } from '../../src/agents/index.js'
import { findTool } from '../../src/operations/catalogue.js'
import type { CallContext } from '../../src/operations/call-context.js'
import { findPage, putPage } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { openBenchDatabase } from '../lib/engines.js'
import { emptyTally, scoreTurn, summarise, type Tally, type TurnGold } from './metrics.js'

interface Fixture {
  fixture_id: string
  suites: string[]
  holdout?: boolean
  sources?: string[]
  active_source?: string
  seed_pages?: Array<{ slug: string; content: string; source_id?: string }>
  turns: Array<{ turn_id: number; role: string; text: string }>
  continuity?: { pair_id: string; pair_role: 'writer' | 'reader' }
}

interface GoldFact {
  entity_slug: string
  match_keywords: string[]
}

interface Gold {
  turns: Record<string, TurnGold & { gold_facts?: GoldFact[] }>
  continuity?: { decisions: Array<{ decision_id: string; expected_slugs: string[]; match_keywords: string[] }> }
}

interface Loaded {
  fixture: Fixture
  gold: Gold
}

const HARNESS = 'brainbench'

function context(db: Database, home: string): CallContext {
  const config = loadConfig({ env: { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' } })
  return { brain: async () => ({ db, config }), logger: memoryLogger(), dryRun: false, remote: false, scopes: null, remoteSlugPrefixes: [], caller: null }
}

async function call<T>(ctx: CallContext, name: string, args: Record<string, unknown>): Promise<T> {
  const op = findTool(name)
  if (!op) throw new Error(`no operation named ${name}`)
  return (await op.run(ctx, op.input.parse(args))) as T
}

interface RecallOut {
  inject: Array<{ slug: string; source_id?: string; sourceId?: string }>
  tokens: number
}

interface RememberOut {
  written: Array<{ slug: string; status: string }>
  session: string | null
  harness: string | null
}

function load(suite: string, includeHoldout: boolean): Loaded[] {
  const dir = join(suite, 'fixtures')
  return readdirSync(dir)
    .filter((f) => f.endsWith('.fixture.json'))
    .sort()
    .map((f) => {
      const fixture = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture
      const gold = JSON.parse(readFileSync(join(suite, 'gold', `${fixture.fixture_id}.gold.json`), 'utf8')) as Gold
      return { fixture, gold }
    })
    .filter((l) => includeHoldout || !l.fixture.holdout)
}

/** Seeds the fixture's pages per source; returns slug → sources it was seeded into. */
async function seed(db: Database, fixture: Fixture): Promise<Map<string, Set<string>>> {
  const sources = new Set([...(fixture.sources ?? []), fixture.active_source ?? 'default', ...(fixture.seed_pages ?? []).map((p) => p.source_id ?? 'default')])
  for (const id of sources) await db.query(`INSERT INTO sources (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [id])
  const where = new Map<string, Set<string>>()
  for (const page of fixture.seed_pages ?? []) {
    const sourceId = page.source_id ?? 'default'
    await putPage({ db, logger: memoryLogger(), repoPath: null, remote: false }, { slug: page.slug, content: page.content, sourceId })
    where.set(page.slug, (where.get(page.slug) ?? new Set()).add(sourceId))
  }
  return where
}

/** Replays the user turns through recall; assistant turns only carry the conversation on. */
async function replay(ctx: CallContext, l: Loaded, seeded: Map<string, Set<string>>, tallies: Tally[], session: string): Promise<Set<string>> {
  const source = l.fixture.active_source ?? 'default'
  const injected = new Set<string>()
  for (const turn of l.fixture.turns) {
    if (turn.role !== 'user') continue
    const out = await call<RecallOut>(ctx, 'recall', { text: turn.text, session_id: session, source })
    const slugs = out.inject.map((i) => i.slug)
    slugs.forEach((s) => injected.add(s))
    const foreign = slugs.filter((s) => !(seeded.get(s)?.has(source) ?? false)).length
    const tokens = { own: out.tokens, hook: Math.ceil((recallContext(out) ?? '').length / 4) }
    for (const tally of tallies) scoreTurn(tally, `${l.fixture.fixture_id}#${turn.turn_id}`, slugs, tokens, foreign, l.gold.turns[String(turn.turn_id)] ?? null)
  }
  return injected
}

async function pageText(db: Database, source: string, slug: string): Promise<string> {
  const page = await findPage(db, source, slug)
  return page ? `${page.compiledTruth}\n${page.timeline}`.toLowerCase() : ''
}

interface VersionsOut {
  versions: Array<{ via: string | null; by: string | null }>
}

/** Whether the page's history, as `brain history` shows it, says remember wrote it for this harness and session. */
async function provenanceKept(ctx: CallContext, source: string, slug: string, session: string): Promise<boolean> {
  const { versions } = await call<VersionsOut>(ctx, 'list_versions', { slug, source })
  return versions.some((v) => v.via === 'remember' && (v.by ?? '').split(' ').includes(`harness=${HARNESS}`) && (v.by ?? '').split(' ').includes(`session=${session}`))
}

/** Records each user turn that carries gold facts with remember, then probes the entity pages. */
async function writeBack(ctx: CallContext, db: Database, l: Loaded, tally: Tally, session: string, aboutFrom: 'gold' | 'text'): Promise<void> {
  const source = l.fixture.active_source ?? 'default'
  for (const turn of l.fixture.turns) {
    const facts = l.gold.turns[String(turn.turn_id)]?.gold_facts ?? []
    if (turn.role !== 'user' || facts.length === 0) continue
    const about = aboutFrom === 'gold' ? { about: [...new Set(facts.map((f) => f.entity_slug))] } : {}
    // With no `about`, a turn that names no entity remember can find writes nothing: each of its facts is a miss.
    const out = await call<RememberOut>(ctx, 'remember', { text: turn.text, ...about, session_id: session, harness: HARNESS, source }).catch((err: unknown) => {
      if ((err as { code?: unknown }).code === 'remember_nothing_named') return { written: [], session, harness: HARNESS }
      throw err
    })
    for (const fact of facts) {
      tally.wbTotal++
      const text = await pageText(db, source, fact.entity_slug)
      if (!fact.match_keywords.every((k) => text.includes(k.toLowerCase()))) {
        tally.failed.push(`${l.fixture.fixture_id}#${turn.turn_id} (fact not kept on ${fact.entity_slug})`)
        continue
      }
      tally.wbSurvived++
      if (out.written.some((w) => w.slug === fact.entity_slug) && (await provenanceKept(ctx, source, fact.entity_slug, session))) tally.wbProvenance++
    }
  }
}

async function fresh(): Promise<{ db: Database; ctx: CallContext; close: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), 'brainbench-'))
  const { db, close } = await openBenchDatabase('pglite')
  return { db, ctx: context(db, home), close: async () => (await close(), rmSync(home, { recursive: true, force: true })) }
}

async function continuity(pairs: Map<string, { writer?: Loaded; reader?: Loaded }>, tally: Tally, writeBackTally: Tally): Promise<void> {
  for (const [pairId, pair] of pairs) {
    if (!pair.writer || !pair.reader) continue
    const { db, ctx, close } = await fresh()
    try {
      const seeded = await seed(db, pair.writer.fixture)
      for (const [slug, s] of await seed(db, pair.reader.fixture)) seeded.set(slug, new Set([...(seeded.get(slug) ?? []), ...s]))
      await writeBack(ctx, db, pair.writer, writeBackTally, `${pairId}-writer`, 'gold')
      const injected = await replay(ctx, pair.reader, seeded, [tally], `${pairId}-reader`)
      const source = pair.reader.fixture.active_source ?? 'default'
      for (const d of pair.reader.gold.continuity?.decisions ?? []) {
        tally.contTotal++
        let hit = d.expected_slugs.some((s) => injected.has(s))
        for (const slug of d.expected_slugs) {
          if (hit) break
          const text = await pageText(db, source, slug)
          hit = d.match_keywords.length > 0 && d.match_keywords.every((k) => text.includes(k.toLowerCase()))
        }
        if (hit) tally.contHit++
        else tally.failed.push(`${pairId}/${d.decision_id} (decision not recalled)`)
      }
    } finally {
      await close()
    }
  }
}

const CELLS = {
  'know-to-ask': ['know_to_ask_failure_rate', 'false_fire_rate', 'source_isolation_violations', 'avg_injected_tokens', 'avg_recall_tokens'],
  push: ['push_precision', 'push_recall', 'source_isolation_violations', 'avg_injected_tokens', 'avg_recall_tokens'],
  'write-back': ['write_back_fidelity', 'provenance_accuracy'],
  'write-back, about found in the text': ['write_back_fidelity', 'provenance_accuracy'],
  continuity: ['continuity_rate', 'source_isolation_violations', 'avg_injected_tokens', 'avg_recall_tokens'],
} as const
type CellName = keyof typeof CELLS

/** The reference runner's Claude Code cells, from its `--json --out` result file. */
function referenceCells(path: string | undefined): Map<string, Record<string, number>> {
  if (!path) return new Map()
  const result = JSON.parse(readFileSync(path, 'utf8')) as { cells?: Array<{ suite: string; harness: string; metrics: Record<string, number> }> }
  return new Map((result.cells ?? []).filter((c) => c.harness === 'claude-code').map((c) => [c.suite, c.metrics]))
}

function table(cells: Record<CellName, Record<string, number>>, reference: Map<string, Record<string, number>>): string {
  const rows = ['| suite | metric | brain | reference (Claude Code) |', '|---|---|---|---|']
  for (const [cell, metrics] of Object.entries(CELLS) as Array<[CellName, readonly string[]]>) {
    for (const metric of metrics) {
      const theirs = reference.get(cell)?.[metric]
      rows.push(`| ${cell} | ${metric} | ${cells[cell][metric]} | ${theirs ?? '—'} |`)
    }
  }
  return rows.join('\n')
}

async function main(argv: string[]): Promise<void> {
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined)
  const suite = at('--suite')
  if (!suite) throw new Error('usage: run.js --suite <dir of evals/brainbench> [--include-holdout] [--reference result.json] [--json] [--out file]')
  const all = load(suite, argv.includes('--include-holdout'))
  const tallies = Object.fromEntries(Object.keys(CELLS).map((c) => [c, emptyTally()])) as Record<CellName, Tally>
  const pairs = new Map<string, { writer?: Loaded; reader?: Loaded }>()
  for (const l of all) {
    const cont = l.fixture.continuity
    if (cont) {
      pairs.set(cont.pair_id, { ...pairs.get(cont.pair_id), [cont.pair_role]: l })
      continue
    }
    const recallCells = (['know-to-ask', 'push'] as const).filter((c) => l.fixture.suites.includes(c)).map((c) => tallies[c])
    const runs: Array<(ctx: CallContext, db: Database, seeded: Map<string, Set<string>>) => Promise<unknown>> = []
    const session = `bb-${l.fixture.fixture_id}`
    if (recallCells.length > 0) runs.push((ctx, _db, seeded) => replay(ctx, l, seeded, recallCells, session))
    if (l.fixture.suites.includes('write-back')) {
      runs.push((ctx, db) => writeBack(ctx, db, l, tallies['write-back'], session, 'gold'))
      // On a brain of its own: the first run's entries would otherwise answer for the second.
      runs.push((ctx, db) => writeBack(ctx, db, l, tallies['write-back, about found in the text'], session, 'text'))
    }
    for (const run of runs) {
      const { db, ctx, close } = await fresh()
      try {
        await run(ctx, db, await seed(db, l.fixture))
      } finally {
        await close()
      }
    }
  }
  await continuity(pairs, tallies.continuity, tallies['write-back'])
  const cells = Object.fromEntries(Object.entries(tallies).map(([c, t]) => [c, summarise(t)])) as Record<CellName, Record<string, number>>
  const failed = Object.entries(tallies).flatMap(([c, t]) => t.failed.map((f) => `${c}: ${f}`))
  const report = { fixtures: all.length, include_holdout: argv.includes('--include-holdout'), cells, failed }
  const text = argv.includes('--json') ? JSON.stringify(report, null, 2) : `${table(cells, referenceCells(at('--reference')))}\n\nfailed:\n${failed.join('\n')}`
  const out = at('--out')
  if (out) writeFileSync(out, `${text}\n`)
  process.stdout.write(`${text}\n`)
}

await main(process.argv.slice(2))
