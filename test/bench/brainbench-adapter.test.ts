/**
 * The BrainBench adapter (bench/brainbench) scores what it is given: a small suite written here in
 * the public suite's layout — one recall conversation, one write-back conversation, one continuity
 * pair — with one gold turn that brain cannot meet, so the test sees the adapter count a miss as
 * well as the hits.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const RUNNER = fileURLToPath(new URL('../../bench/brainbench/run.js', import.meta.url))

const PERSON = `---\ntitle: Odile Marrowfield\ntype: person\naliases: [odile]\n---\n\nOdile runs the probe programme.\n`
const COMPANY = `---\ntitle: Tidewell Labs\ntype: company\n---\n\nTidewell Labs builds probes.\n`

function write(dir: string, id: string, fixture: object, gold: object): void {
  writeFileSync(join(dir, 'fixtures', `${id}.fixture.json`), JSON.stringify({ fixture_id: id, ...fixture }))
  writeFileSync(join(dir, 'gold', `${id}.gold.json`), JSON.stringify(gold))
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

t.test('the adapter replays a suite and scores hits and misses per cell', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brainbench-suite-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'fixtures'))
  mkdirSync(join(dir, 'gold'))
  const seed = [
    { slug: 'people/odile-marrowfield', content: PERSON },
    { slug: 'companies/tidewell-labs', content: COMPANY },
  ]
  write(
    dir,
    'kta-1',
    {
      suites: ['know-to-ask', 'push'],
      seed_pages: seed,
      turns: [
        { turn_id: 1, role: 'user', text: 'Prep my call with Odile Marrowfield.' },
        { turn_id: 2, role: 'assistant', text: 'Sure.' },
        { turn_id: 3, role: 'user', text: 'Good morning! Hope the weekend was restful.' },
        { turn_id: 4, role: 'user', text: 'Remind me what we know about the probe budget.' },
      ],
    },
    {
      turns: {
        '1': { should_retrieve: true, gold_slugs: ['people/odile-marrowfield'] },
        '3': { should_retrieve: false },
        // Names nothing: recall stays quiet, so this gold turn is the miss the adapter must count.
        '4': { should_retrieve: true, gold_slugs: ['companies/tidewell-labs'] },
      },
    },
  )
  write(
    dir,
    'wb-1',
    { suites: ['write-back'], seed_pages: seed, turns: [{ turn_id: 1, role: 'user', text: 'Tidewell Labs moved the probe launch to June.', ts: '2026-03-02T10:00:00Z' }] },
    { turns: { '1': { should_retrieve: false, gold_facts: [{ entity_slug: 'companies/tidewell-labs', match_keywords: ['probe launch', 'June'] }] } } },
  )
  write(
    dir,
    'cont-1-writer',
    { suites: ['continuity'], seed_pages: seed, continuity: { pair_id: 'cont-1', pair_role: 'writer' }, turns: [{ turn_id: 1, role: 'user', text: 'We decided to pass on Tidewell Labs for now.' }] },
    { turns: { '1': { should_retrieve: false, gold_facts: [{ entity_slug: 'companies/tidewell-labs', match_keywords: ['pass'] }] } } },
  )
  write(
    dir,
    'cont-1-reader',
    { suites: ['continuity'], seed_pages: seed, continuity: { pair_id: 'cont-1', pair_role: 'reader' }, turns: [{ turn_id: 1, role: 'user', text: 'Where did we land on Tidewell Labs?' }] },
    {
      turns: { '1': { should_retrieve: true, gold_slugs: ['companies/tidewell-labs'] } },
      continuity: { decisions: [{ decision_id: 'd1', expected_slugs: ['companies/tidewell-labs'], match_keywords: ['pass', 'tidewell'] }] },
    },
  )
  const result = await run(['--suite', dir, '--json'])
  t.equal(result.code, 0, result.stderr)
  const report = JSON.parse(result.stdout) as { fixtures: number; cells: Record<string, Record<string, number>>; failed: string[] }
  t.equal(report.fixtures, 4)
  t.match(report.cells['know-to-ask'], { know_to_ask_failure_rate: 0.5, false_fire_rate: 0, source_isolation_violations: 0 })
  t.match(report.cells.push, { push_precision: 1, push_recall: 0.5 })
  t.ok(report.cells['know-to-ask']!.avg_injected_tokens! > 0, 'injected text is counted')
  t.match(report.cells['write-back'], { write_back_fidelity: 1, provenance_accuracy: 1 })
  t.match(report.cells['write-back, about found in the text'], { write_back_fidelity: 1, provenance_accuracy: 1 })
  t.match(report.cells.continuity, { continuity_rate: 1 })
  t.ok(
    report.failed.some((f) => /kta-1#4 \(missed retrieve\)/.test(f)),
    'the miss is named',
  )
})
