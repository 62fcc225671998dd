import t from 'tap'
import { writeTree } from '../helpers/tree.js'
import { join } from 'node:path'
import { ENGINES } from '../helpers/engines.js'
import { cliBrain, servedCliMode } from '../helpers/cli.js'

const folder = (files: Record<string, string>): string => writeTree('brain-import-cli-', files)

interface ImportSummary {
  files: number
  imported: number
  created: number
  skipped: number
  failed: number
  failures: Array<{ path: string; code: string }>
}

for (const engine of ENGINES) {
  t.test(`brain import indexes a folder as a job and answers a search [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const root = folder({
      'concepts/retrieval.md': '# Retrieval practice\n\nTesting yourself strengthens memory.\n',
      'src/scheduler.ts': 'export function nextReview(days: number): number {\n  return days * 2\n}\n',
      'broken.md': '---\ntitle: [unclosed\n---\n',
    })
    const first = await brain.run(['import', root, '--no-embed'])
    t.equal(first.code, 0, first.stderr)
    const summary = first.json<ImportSummary>()
    t.same([summary.files, summary.imported, summary.created, summary.skipped, summary.failed], [3, 2, 2, 0, 1])
    t.same(
      summary.failures.map((f) => [f.path, f.code]),
      [['broken.md', 'YAML_PARSE']],
    )
    const again = await brain.run(['import', root, '--no-embed'])
    t.same([again.json<ImportSummary>().imported, again.json<ImportSummary>().skipped], [0, 2], 'unchanged files are skipped')
    const jobs = await brain.run(['jobs', 'list', '--name', 'import'])
    t.equal(jobs.json<Array<{ status: string }>>().filter((j) => j.status === 'completed').length, 2, 'each import ran as a completed job')
    const search = await brain.run(['search', 'nextReview'])
    t.equal(search.code, 0, search.stderr)
    t.match(search.stdout, /src\/scheduler\.ts/, 'the code page is found')
    const missing = await brain.run(['import', join(root, 'nope')])
    t.equal(missing.code, 1)
    t.equal(missing.json<{ error: { code: string } }>().error.code, 'folder_not_found')
    const badStrategy = await brain.run(['import', root, '--strategy', 'everything'])
    t.equal(badStrategy.json<{ error: { code: string } }>().error.code, 'invalid_strategy')
  })
}
