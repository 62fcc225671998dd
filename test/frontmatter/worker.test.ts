// test-runner: shares a process
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { createAutopilotHandler, type AutopilotReport } from '../../workers/autopilot-cycle.js'
import frontmatterAudit from '../../workers/frontmatter-audit.js'
import type { JobContext } from '../../src/queue/handler.js'
import { engineTest, type TestDatabase } from '../helpers/engines.js'
import { testConfig, testLogger } from '../queue/helpers.js'

function ctx(db: TestDatabase['db'], data: Record<string, unknown>, name: JobContext['name'] = 'autopilot-cycle'): JobContext {
  return { jobId: 'job', name, data, signal: new AbortController().signal, db, config: testConfig(), logger: testLogger(), progress: () => undefined }
}

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-fmw-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text)
  return root
}

engineTest(t, 'the frontmatter-audit phase counts problems per source and changes nothing', async (t, { db }) => {
  const broken = '---\ntitle: B\n\nbody\n'
  const notes = folder({ 'a.md': '---\ntitle: A\n---\n', 'b.md': broken, 'c.md': '---\n---\n' })
  const work = folder({ 'w.md': '---\ntitle: [\n---\n' })
  await insertSource(db, { id: 'notes', localPath: notes })
  await insertSource(db, { id: 'work', localPath: work })

  const all = (await frontmatterAudit(ctx(db, {}))) as { files: number; files_with_issues: number; counts: Record<string, number>; sources: { source_id: string; counts: Record<string, number> }[] }
  t.equal(all.files, 4)
  t.equal(all.files_with_issues, 3)
  t.same(all.counts, { MISSING_CLOSE: 1, YAML_PARSE: 1, EMPTY_FRONTMATTER: 1 })
  t.same(all.sources.find((s) => s.source_id === 'work')!.counts, { YAML_PARSE: 1 })
  t.equal(readFileSync(join(notes, 'b.md'), 'utf8'), broken, 'read-only')

  const one = (await frontmatterAudit(ctx(db, { sourceId: 'work' }))) as { sources: { source_id: string }[] }
  t.same(
    one.sources.map((s) => s.source_id),
    ['work'],
  )

  // Through the cycle: the phase gets the brain directory's source.
  const cycle = createAutopilotHandler()
  const report = (await cycle(ctx(db, { dir: notes, phases: ['frontmatter-audit'] }))) as AutopilotReport
  t.match(report.phases, [{ phase: 'frontmatter-audit', status: 'completed', result: { files: 3, files_with_issues: 2, sources: [{ source_id: 'notes' }] } }])
})
