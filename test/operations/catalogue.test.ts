import t from 'tap'
import * as z from 'zod'
import { dispatchTool } from '../../src/mcp/index.js'
import { OPERATIONS } from '../../src/operations/index.js'
import { cliBrain } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

t.test('every command-line flag of an operation fills a field of its schema', async (t) => {
  for (const operation of OPERATIONS) {
    if (!operation.cli) continue
    const fields = Object.keys((operation.input as z.ZodObject).shape)
    const used = [
      ...operation.cli.options.map((o) => o.field),
      ...(operation.cli.positional ? [operation.cli.positional.field, ...(operation.cli.positional.then ?? []).map((w) => w.field)] : []),
      ...(operation.cli.stdin ? [operation.cli.stdin.field] : []),
    ]
    for (const field of used) t.ok(fields.includes(field), `${operation.name}: ${field} is an input field`)
    t.equal(new Set(operation.cli.options.map((o) => o.flag)).size, operation.cli.options.length, `${operation.name}: flags are distinct`)
  }
})

for (const engine of ENGINES) {
  t.test(`slug prefixes reach search on the CLI and over MCP [${engine}]`, async (t) => {
    const brain = await cliBrain(engine)
    t.teardown(brain.cleanup)
    for (const slug of ['test/fixture-page', 'notes/fixture-note']) {
      t.equal((await brain.run(['put', slug, '--no-embed'], { input: `# ${slug}\n\nA fixture about lanterns.\n` })).code, 0)
    }
    const slugs = async (args: string[]): Promise<string[]> => {
      const run = await brain.run(['search', 'lanterns', '--json', ...args])
      t.equal(run.code, 0, run.stderr)
      return run
        .json<{ results: Array<{ slug: string }> }>()
        .results.map((r) => r.slug)
        .sort()
    }
    t.same(await slugs([]), ['notes/fixture-note'], 'test/ is hard-excluded by default')
    t.same(await slugs(['--include-slug-prefixes', 'test/']), ['notes/fixture-note', 'test/fixture-page'])
    t.same(await slugs(['--include-slug-prefixes', 'test/', '--exclude-slug-prefixes', 'notes/,other/']), ['test/fixture-page'])
    const queried = await brain.run(['query', 'lanterns', '--json', '--include-slug-prefixes', 'test/'])
    t.match(queried.stdout, /test\/fixture-page/, 'query takes them too')

    const { loadConfig } = await import('../../src/config/index.js')
    const { openDatabase } = await import('../../src/db/open.js')
    const config = loadConfig({ env: brain.env })
    const db = await openDatabase(config.engine)
    t.teardown(() => db.close())
    const ctx = {
      brain: async () => ({ db, config }),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      dryRun: false,
      remote: true,
      scopes: null,
      remoteSlugPrefixes: [],
    }
    const outcome = await dispatchTool(ctx, 'search', { query: 'lanterns', include_slug_prefixes: ['test/'], exclude_slug_prefixes: ['notes/'] })
    t.same(
      (outcome.result.structuredContent.results as Array<{ slug: string }>).map((r) => r.slug),
      ['test/fixture-page'],
      'the MCP tool takes the same arguments',
    )
  })
}

t.test('code-def text names each definition by the line that holds its name, not by a return type, decorator or comment above it', async (t) => {
  const codeDef = OPERATIONS.find((o) => o.name === 'code_def')!
  const at = (slug: string, snippet: string, symbolName: string) => ({
    slug,
    sourceId: 'default',
    file: slug,
    language: null,
    symbolType: 'function',
    startLine: 1,
    endLine: 9,
    snippet,
    symbolName,
    symbolNameQualified: symbolName,
  })
  const text = await codeDef.present!.text({
    results: [
      at('io.c', 'size_t\nread_file(const char *name)\n{', 'read_file'),
      at('a.py', '@property\n# read_file is cached\ndef read_file(self):', 'read_file'),
      at('b.ts', '/** Reads read_file. */\nexport function other() {}', 'read_file'),
    ],
  } as never)
  t.same(
    text.split('\n').filter((l) => l.startsWith('    ')),
    ['    read_file(const char *name)', '    def read_file(self):', '    /** Reads read_file. */'],
  )
})
