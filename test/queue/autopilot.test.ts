// test-runner: shares a process
import t from 'tap'
import { NotAvailableError } from '../../src/errors/index.js'
import type { Database } from '../../src/db/types.js'
import { createAutopilotHandler, type AutopilotDeps, type AutopilotReport } from '../../workers/autopilot-cycle.js'
import { selectPhases, AUTOPILOT_PHASES } from '../../src/queue/index.js'
import type { JobContext, JobHandler } from '../../src/queue/handler.js'
import { testConfig, testLogger } from './helpers.js'

interface Call {
  phase: string
  data: Record<string, unknown>
}

function fakeDeps(handlers: Partial<Record<string, JobHandler>>, calls: Call[]): AutopilotDeps {
  return {
    async loadPhase(phase) {
      const handler = handlers[phase]
      if (!handler) throw new NotAvailableError(`${phase.replace('-', '_')}_not_available`, `${phase} is not here`)
      return async (ctx) => {
        calls.push({ phase, data: ctx.data })
        return handler(ctx)
      }
    },
    housekeeping: async () => ({ rescued_stalled: 0 }),
  }
}

function ctx(db: Database, data: Record<string, unknown>, signal = new AbortController().signal): JobContext {
  return { jobId: 'cycle', name: 'autopilot-cycle', data, signal, db, config: testConfig(), logger: testLogger(), progress: () => undefined }
}

const noDb = { query: async () => ({ rows: [], rowCount: 0 }) } as unknown as Database

t.test('seven fixed phases, sync then extract first', async (t) => {
  t.same(AUTOPILOT_PHASES, ['sync', 'extract', 'embed', 'reconcile-links', 'frontmatter-audit', 'queue-housekeeping', 'backup'])
  t.same(selectPhases({}), AUTOPILOT_PHASES)
  t.same(selectPhases({ phase: 'embed' }), ['embed'])
  t.same(selectPhases({ phases: ['extract', 'sync'] }), ['sync', 'extract'], 'always in cycle order')
  t.throws(() => selectPhases({ phase: 'nap' }), { code: 'unknown_phase' })
})

t.test('a full cycle: extract gets the slugs sync touched, sync is told not to extract itself', async (t) => {
  const calls: Call[] = []
  const handler = createAutopilotHandler(
    fakeDeps(
      {
        sync: async () => ({ slugs: ['notes/a', 'notes/b'], imported: 2 }),
        extract: async (c) => ({ extracted: (c.data.slugs as string[]).length }),
        embed: async () => ({ embedded: 0 }),
      },
      calls,
    ),
  )
  const report = (await handler(ctx(noDb, { dir: '/brain' }))) as AutopilotReport
  t.same(
    calls.map((c) => c.phase),
    ['sync', 'extract', 'embed'],
  )
  t.same(calls[0]!.data, { repoPath: '/brain', noExtract: true }, 'no source matches: the directory with the global bookmark')
  t.same(calls[1]!.data, { slugs: ['notes/a', 'notes/b'] })
  t.same(calls[2]!.data, { mode: 'stale' })
  t.same(
    report.phases.map((p) => [p.phase, p.status, p.reason ?? null]),
    [
      ['sync', 'completed', null],
      ['extract', 'completed', null],
      ['embed', 'completed', null],
      ['reconcile-links', 'skipped', 'reconcile_links_not_available'],
      ['frontmatter-audit', 'skipped', 'frontmatter_audit_not_available'],
      ['queue-housekeeping', 'completed', null],
      ['backup', 'skipped', 'backup_not_available'],
    ],
  )
  t.same(report.failed, [])
})

t.test('extract walks everything without a sync result, and does nothing for an empty one', async (t) => {
  const calls: Call[] = []
  const extract: JobHandler = async () => 'extracted'
  const noSync = createAutopilotHandler(fakeDeps({ extract }, calls))
  const first = (await noSync(ctx(noDb, { dir: '/brain', phases: ['sync', 'extract'] }))) as AutopilotReport
  t.same(
    first.phases.map((p) => p.status),
    ['skipped', 'completed'],
    'sync not available, extract still runs',
  )
  t.same(calls, [{ phase: 'extract', data: {} }], 'with no sync result extract walks all files')
  calls.length = 0
  const emptySync = createAutopilotHandler(fakeDeps({ sync: async () => ({ slugs: [] }), extract }, calls))
  const second = (await emptySync(ctx(noDb, { dir: '/brain', phases: ['sync', 'extract'] }))) as AutopilotReport
  t.same(
    second.phases.map((p) => [p.status, p.reason ?? null]),
    [
      ['completed', null],
      ['skipped', 'sync_touched_nothing'],
    ],
  )
  t.same(
    calls.map((c) => c.phase),
    ['sync'],
    'extract is not called for an empty list',
  )
})

t.test('sync alone keeps its own extraction', async (t) => {
  const calls: Call[] = []
  const handler = createAutopilotHandler(fakeDeps({ sync: async () => ({ slugs: [] }) }, calls))
  await handler(ctx(noDb, { dir: '/brain', phase: 'sync' }))
  t.same(calls, [{ phase: 'sync', data: { repoPath: '/brain', noExtract: false } }])
})

t.test('without any brain directory sync covers every source', async (t) => {
  const calls: Call[] = []
  const handler = createAutopilotHandler(fakeDeps({ sync: async () => ({}) }, calls))
  await handler(ctx(noDb, { phase: 'sync' }))
  t.same(calls[0]!.data, { all: true, noExtract: false })
})

t.test('a failing phase is recorded and the cycle goes on', async (t) => {
  const calls: Call[] = []
  const handler = createAutopilotHandler(
    fakeDeps(
      {
        sync: async () => {
          throw new Error('git exploded')
        },
        embed: async () => 'ok',
      },
      calls,
    ),
  )
  const report = (await handler(ctx(noDb, { dir: '/b', phases: ['sync', 'embed'] }))) as AutopilotReport
  t.match(report.phases[0], { phase: 'sync', status: 'failed', error: { message: 'git exploded' } })
  t.match(report.phases[1], { phase: 'embed', status: 'completed' })
  t.same(report.failed, ['sync'])
})

t.test('the abort signal is checked between phases: a timed-out cycle stops after the current phase', async (t) => {
  const calls: Call[] = []
  const controller = new AbortController()
  const handler = createAutopilotHandler(
    fakeDeps(
      {
        sync: async () => {
          controller.abort(new Error('cycle timed out'))
          return { slugs: ['a'] }
        },
        extract: async () => 'never',
      },
      calls,
    ),
  )
  await t.rejects(handler(ctx(noDb, { dir: '/b' }, controller.signal)), { message: 'cycle timed out' })
  t.same(
    calls.map((c) => c.phase),
    ['sync'],
    'nothing after the phase that was running',
  )
})
