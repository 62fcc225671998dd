// test-runner: shares a process
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig } from '../../../src/config/index.js'
import type { Database } from '../../../src/db/types.js'
import { insertSource } from '../../../src/intake/sources/source-repository.js'
import { readHostWork, readLedger, runOrchestrator, upgradePaths, type MigrationContext } from '../../../src/releases/upgrade/index.js'
import { v0_22_4 } from '../../../src/releases/upgrade/orchestrators/v0.22.4.js'
import { engineTest } from '../../helpers/engines.js'

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'brain v0224 '))
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  return root
}

function context(home: string, db: Database | null): MigrationContext {
  return {
    home,
    config: loadConfig({ env: { BRAIN_HOME: home } }),
    withBrain: db ? (fn) => fn(db) : null,
    state: new Map(),
    now: () => new Date('2026-03-01T00:00:00Z'),
  }
}

engineTest(t, 'v0.22.4: audit JSON, one follow-up per source with problems, no duplicates, no page changed', async (t, { db }) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-home-'))
  const broken = { 'a.md': '---\ntitle: A\n\nbody\n', 'b.md': '---\ntitle: [\n---\n', 'c.md': '---\ntitle: C\n---\n' }
  const notes = folder(broken)
  const clean = folder({ 'ok.md': '---\ntitle: OK\n---\n' })
  await insertSource(db, { id: 'notes', localPath: notes })
  await insertSource(db, { id: 'clean', localPath: clean })

  const run = await runOrchestrator(v0_22_4, context(home, db))
  t.equal(run.status, 'complete')
  t.same(
    run.phases.map((p) => [p.name, p.status]),
    [
      ['schema', 'completed'],
      ['audit', 'completed'],
      ['pending-host-work', 'completed'],
    ],
  )
  const audit = JSON.parse(readFileSync(upgradePaths(home).auditFile('0.22.4'), 'utf8')) as { sources: { source_id: string; files: number; counts: Record<string, number> }[] }
  t.equal(upgradePaths(home).auditFile('0.22.4'), join(home, 'migrations', 'v0.22.4-audit.json'))
  t.match(
    audit.sources.find((s) => s.source_id === 'notes'),
    { files: 3, counts: { MISSING_CLOSE: 1, YAML_PARSE: 1 } },
  )
  t.match(
    audit.sources.find((s) => s.source_id === 'clean'),
    { files: 1, counts: {} },
  )

  const work = readHostWork(home)
  t.equal(work.length, 1, 'only the source with problems')
  t.equal(work[0]!.command, `brain frontmatter validate '${notes}' --fix`, 'the exact command, the path quoted as one word')
  t.equal(work[0]!.source_id, 'notes')

  t.equal((await runOrchestrator(v0_22_4, context(home, db))).status, 'complete')
  t.equal(readHostWork(home).length, 1, 're-running does not duplicate entries')
  for (const [rel, text] of Object.entries(broken)) t.equal(readFileSync(join(notes, rel), 'utf8'), text, `${rel} unchanged`)
  t.notOk(existsSync(join(notes, 'a.md.bak')))
})

t.test('v0.22.4 without a brain: phases skipped, not failed', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-home-'))
  const run = await runOrchestrator(v0_22_4, context(home, null))
  t.equal(run.status, 'complete')
  t.same(
    run.phases.map((p) => [p.name, p.status]),
    [
      ['schema', 'completed'],
      ['audit', 'skipped'],
      ['pending-host-work', 'skipped'],
    ],
  )
  t.match(run.phases[1]!.detail, /no brain is configured/)
  t.notOk(existsSync(upgradePaths(home).auditFile('0.22.4')))
  t.same(
    readLedger(home).entries.map((e) => e.status),
    ['partial', 'complete'],
  )
})
