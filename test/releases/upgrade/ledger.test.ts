// test-runner: shares a process
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig } from '../../../src/config/index.js'
import { compareVersionText as compareVersions, parseVersion } from '../../../src/releases/version/index.js'
import {
  appendHostWork,
  appendLedgerEntry,
  readHostWork,
  readLedger,
  runOrchestrator,
  stuckPartials,
  upgradePaths,
  type LedgerEntry,
  type VersionOrchestrator,
} from '../../../src/releases/upgrade/index.js'

function entry(version: string, status: LedgerEntry['status'], at = '2026-01-01T00:00:00.000Z'): LedgerEntry {
  return { version, status, at }
}

t.test('four-part versions compare numerically', async (t) => {
  t.same(parseVersion('0.38.0.0'), [0, 38, 0, 0])
  t.same(parseVersion('v0.22.4', { partial: true }), [0, 22, 4, 0], 'missing parts are 0')
  t.equal(parseVersion('0.22.4'), null, 'strictly four parts unless asked')
  t.equal(parseVersion('0.22.x', { partial: true }), null)
  t.ok(compareVersions('0.38.0.0', '0.22.4') > 0)
  t.ok(compareVersions('0.10.0', '0.9.9.9') > 0, 'numeric, not lexical')
  t.equal(compareVersions('0.22.4', '0.22.4.0'), 0)
})

t.test('the minions_migration rule: stale partials are not reported, stuck ones are', async (t) => {
  t.same(stuckPartials([entry('0.22.4', 'partial')]), [entry('0.22.4', 'partial')], 'a partial alone is stuck')
  t.same(stuckPartials([entry('0.22.4', 'partial'), entry('0.22.4', 'complete')]), [], 'completed later: stale')
  t.same(stuckPartials([entry('0.22.4', 'partial'), entry('0.38.0.0', 'complete')]), [], 'a complete of a newer version makes it stale')
  t.same(stuckPartials([entry('0.22.4', 'complete'), entry('0.22.4', 'partial')]), [], 'a complete of the same version, whenever written')
  const olderOnly = [entry('0.38.0.0', 'partial', '2026-01-01T00:00:00.000Z'), entry('0.22.4', 'complete', '2026-02-01T00:00:00.000Z')]
  t.same(
    stuckPartials(olderOnly).map((e) => e.version),
    ['0.38.0.0'],
    'a partial whose only later complete is older still fails',
  )
  t.same(stuckPartials([entry('0.38.0.0', 'partial'), entry('0.38.0.0', 'partial')]).length, 1, 'one report per version')
})

t.test('the ledger file: appended lines, torn lines ignored and counted', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-ledger-'))
  appendLedgerEntry(home, entry('0.22.4', 'partial'))
  appendFileSync(upgradePaths(home).completed, '{"version": "0.2\n')
  appendLedgerEntry(home, entry('0.22.4', 'complete'))
  const ledger = readLedger(home)
  t.same(
    ledger.entries.map((e) => e.status),
    ['partial', 'complete'],
  )
  t.equal(ledger.invalidLines, 1)
  t.same(readLedger(mkdtempSync(join(tmpdir(), 'brain-ledger-'))), { entries: [], invalidLines: 0 }, 'no file: empty ledger')
})

t.test('host work is appended once per id', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-ledger-'))
  const item = { id: 'x:1', version: '0.22.4', kind: 'k', command: 'brain doctor', reason: 'r', created_at: 'now' }
  t.same(appendHostWork(home, [item, { ...item, id: 'x:2' }]), { added: 2, alreadyPending: 0 })
  t.same(appendHostWork(home, [item]), { added: 0, alreadyPending: 1 })
  t.same(
    readHostWork(home).map((i) => i.id),
    ['x:1', 'x:2'],
  )
})

t.test('a failing phase leaves a partial entry; a re-run completes it', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-ledger-'))
  let fail = true
  const orchestrator: VersionOrchestrator = {
    version: '9.9.9.9',
    summary: 'test',
    rewritesPages: false,
    phases: [
      { name: 'one', run: async () => ({ status: 'completed', detail: 'done' }) },
      {
        name: 'two',
        run: async () => {
          if (fail) throw new Error('disk full')
          return { status: 'completed', detail: 'done' }
        },
      },
    ],
  }
  const ctx = { home, config: loadConfig({ env: { BRAIN_HOME: home } }), withBrain: null, state: new Map(), now: () => new Date('2026-03-01T00:00:00Z') }
  const first = await runOrchestrator(orchestrator, ctx)
  t.equal(first.status, 'partial')
  t.match(first.phases, [
    { name: 'one', status: 'completed' },
    { name: 'two', status: 'failed', detail: 'disk full' },
  ])
  t.same(
    stuckPartials(readLedger(home).entries).map((e) => e.version),
    ['9.9.9.9'],
  )
  fail = false
  t.equal((await runOrchestrator(orchestrator, ctx)).status, 'complete')
  t.same(stuckPartials(readLedger(home).entries), [], 'the partial is now stale')
  const lines = readFileSync(upgradePaths(home).completed, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LedgerEntry)
  t.same(
    lines.map((l) => l.status),
    ['partial', 'partial', 'partial', 'complete'],
  )
})
