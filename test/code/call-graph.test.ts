// test-runner: shares a process
import t from 'tap'
import { addCodeEdges, codeCallees, codeCallers, deleteCodeEdgesForChunks, getEdgesByChunk } from '../../src/code/index.js'
import { isBrainError } from '../../src/errors/index.js'
import { deletePage, findPage, importPage, listChunks } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { importRepo, REPO } from './fixture.js'

/** [language, callee, the caller's qualified name, its file] — one direct call per language. */
const CALLS: Array<[string, string, string, string]> = [
  ['typescript', 'store', 'enqueue', 'src/queue.ts'],
  ['typescript (this.)', 'Queue.validate', 'Queue.submit', 'src/queue.ts'],
  ['tsx (constructor)', 'Queue', 'App', 'src/app.tsx'],
  ['tsx (method on an instance)', 'Queue.submit', 'App', 'src/app.tsx'],
  ['javascript', 'formatValue', 'helper', 'lib/util.js'],
  ['python', 'run', 'main', 'app/main.py'],
  ['python (self.)', 'Worker.step', 'Worker.start', 'app/main.py'],
  ['go', 'Serve', 'Main', 'cmd/main.go'],
  ['rust', 'compute', 'main', 'src/lib.rs'],
  ['rust (path call)', 'Point.origin', 'compute', 'src/lib.rs'],
  ['java', 'greet', 'App.run', 'src/App.java'],
  ['c#', 'Greet', 'Program.Run', 'src/Program.cs'],
  ['ruby', 'prepare', 'Tool.run', 'lib/tool.rb'],
  ['php', 'render', 'handle', 'src/index.php'],
  ['c', 'tock', 'tick', 'src/main.c'],
  ['c++', 'spin', 'start', 'src/engine.cpp'],
]

engineTest(t, 'callers and callees of one call per language', async (t, { db }) => {
  await importRepo(db)
  for (const [language, callee, caller, file] of CALLS) {
    const callers = await codeCallers(db, { symbol: callee })
    t.ok(
      callers.results.some((r) => r.symbolNameQualified === caller && r.file === file && r.depth === 1),
      `${language}: ${caller} calls ${callee} (got ${callers.results.map((r) => r.symbolNameQualified).join(', ')})`,
    )
    const callees = await codeCallees(db, { symbol: caller })
    const calleeName = callee.split('.').pop()!
    t.ok(
      callees.results.some((r) => r.symbolName === calleeName && r.depth === 1),
      `${language}: ${caller} → ${callee} as a callee`,
    )
  }
  const callees = await codeCallees(db, { symbol: 'enqueue' })
  const audit = callees.results.find((r) => r.symbolName === 'audit')
  t.match(audit, { file: null, chunkId: null, via: 'symbol', candidates: 0 }, 'a callee defined outside the brain is a by-name leaf')
  t.match(
    callees.results.find((r) => r.symbolName === 'store'),
    { file: 'src/queue.ts', startLine: 19, path: ['enqueue', 'store'] },
  )
})

engineTest(t, 'a transitive walk carries depth and path, stops at a cycle and at the cap', async (t, { db }) => {
  await importRepo(db)
  const direct = await codeCallers(db, { symbol: 'store' })
  t.same(
    direct.results.map((r) => [r.symbolNameQualified, r.depth]),
    [['enqueue', 1]],
  )
  const deep = await codeCallers(db, { symbol: 'store', depth: 5 })
  const byName = new Map(deep.results.map((r) => [r.symbolNameQualified, r]))
  t.match(byName.get('enqueue'), { depth: 1, path: ['enqueue', 'store'] })
  t.match(byName.get('Queue.submit'), { depth: 2, path: ['Queue.submit', 'enqueue', 'store'] })
  t.match(byName.get('App'), { depth: 3, path: ['App', 'Queue.submit', 'enqueue', 'store'], file: 'src/app.tsx' })
  t.notOk(byName.has('store'), 'the cycle store → enqueue → store does not bring the root back')
  t.equal(deep.results.length, new Set(deep.results.map((r) => `${r.chunkId}:${r.symbolNameQualified}`)).size, 'no node twice')

  const calleesDeep = await codeCallees(db, { symbol: 'Queue.submit', depth: 4 })
  const names = calleesDeep.results.map((r) => `${r.depth}:${r.symbolNameQualified}`)
  t.ok(names.includes('1:enqueue') && names.includes('2:store') && names.includes('1:Queue.validate'), names.join(' '))
  t.notOk(
    calleesDeep.results.some((r) => r.symbolNameQualified === 'enqueue' && r.depth > 1),
    'enqueue ← store cycle walked once',
  )

  const capped = await codeCallers(db, { symbol: 'store', depth: 5, limit: 1 })
  t.equal(capped.results.length, 1)
  t.equal(capped.truncated, true)
})

engineTest(t, 'a name with several definitions is reported as ambiguous', async (t, { db }) => {
  await importRepo(db)
  const callers = await codeCallers(db, { symbol: 'duplicate' })
  t.equal(callers.ambiguous, true)
  t.same(callers.definitions.map((d) => d.file).sort(), ['app/dup_b.py', 'src/dup_a.ts'])
  t.same(callers.results.map((r) => r.symbolNameQualified).sort(), ['callDuplicate', 'useDuplicate'])
  t.equal((await codeCallers(db, { symbol: 'enqueue' })).ambiguous, false)
  const callees = await codeCallees(db, { symbol: 'callDuplicate' })
  t.same(
    callees.results.map((r) => [r.file, r.candidates]).sort(),
    [
      ['app/dup_b.py', 2],
      ['src/dup_a.ts', 2],
    ],
    'both candidates, each marked as one of two',
  )
  const local = await codeCallees(db, { symbol: 'useDuplicate' })
  t.same(
    local.results.map((r) => [r.file, r.candidates]),
    [['src/dup_a.ts', 1]],
    'a call resolved on its own page is not ambiguous',
  )
})

engineTest(t, "re-import replaces a page's edges; deleting the page removes them", async (t, { db }) => {
  await importRepo(db, {}, ['src/main.c'])
  t.same(
    (await codeCallers(db, { symbol: 'tock' })).results.map((r) => r.symbolNameQualified),
    ['tick'],
  )
  await importPage(db, { slug: 'src/main.c', kind: 'code', path: 'src/main.c', content: REPO['src/main.c']!.replace('tock();', 'tack();') })
  t.same((await codeCallers(db, { symbol: 'tock' })).results, [], 'the old edge is gone')
  t.same(
    (await codeCallers(db, { symbol: 'tack' })).results.map((r) => r.symbolNameQualified),
    ['tick'],
  )
  const page = await findPage(db, 'default', 'src/main.c')
  const count = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(`SELECT (SELECT count(*) FROM code_edges_symbol) + (SELECT count(*) FROM code_edges_chunk) + (SELECT count(*) FROM code_symbols) AS n`)
    return Number(rows[0]!.n)
  }
  t.ok((await count()) > 0)
  await deletePage(db, 'default', page!.slug)
  t.equal(await count(), 0, 'edges and definitions went with the page')
})

engineTest(t, 'engine edge operations: add, read by chunk, delete', async (t, { db }) => {
  await importRepo(db, {}, ['src/main.c'])
  const page = await findPage(db, 'default', 'src/main.c')
  const [chunk] = await listChunks(db, page!.id)
  await deleteCodeEdgesForChunks(db, [chunk!.id])
  t.same(await getEdgesByChunk(db, chunk!.id), [])
  const added = await addCodeEdges(db, [
    { fromChunkId: chunk!.id, toChunkId: chunk!.id, edgeType: 'calls', sourceId: 'default', fromSymbol: 'tick' },
    { fromChunkId: chunk!.id, toSymbolQualified: 'lib.open', edgeType: 'calls', sourceId: 'default' },
    { fromChunkId: chunk!.id, toSymbolQualified: 'lib.open', edgeType: 'calls', sourceId: 'default' },
  ])
  t.equal(added, 2, 'a duplicate is ignored')
  const edges = await getEdgesByChunk(db, chunk!.id)
  t.match(edges, [
    { via: 'chunk', toChunkId: chunk!.id, edgeType: 'calls', fromSymbol: 'tick' },
    { via: 'symbol', toChunkId: null, toSymbolQualified: 'lib.open' },
  ])
  t.equal((await codeCallers(db, { symbol: 'open' })).results.length, 1, 'an added by-name edge is read by the graph')
  t.equal(await deleteCodeEdgesForChunks(db, [chunk!.id]), 2)
  t.same(await getEdgesByChunk(db, chunk!.id), [])
  const err = await addCodeEdges(db, [{ fromChunkId: chunk!.id, edgeType: 'calls', sourceId: 'default' }]).then(
    () => null,
    (e: unknown) => e,
  )
  t.ok(isBrainError(err) && err.code === 'code_edge_requires_target')
})

/** Every edge whose caller's place differs from its page's slug and its definition's (else chunk's) first line. */
async function misplacedEdges(db: Parameters<typeof importRepo>[0]): Promise<Array<Record<string, unknown>>> {
  const { rows } = await db.query(
    `WITH e AS (SELECT from_chunk_id, from_symbol, from_slug, from_line FROM code_edges_symbol
                UNION ALL SELECT from_chunk_id, from_symbol, from_slug, from_line FROM code_edges_chunk)
     SELECT e.*, p.slug, coalesce((SELECT min(cs.start_line) FROM code_symbols cs
                                   WHERE cs.chunk_id = e.from_chunk_id AND cs.qualified = e.from_symbol), c.start_line) AS line
     FROM e JOIN content_chunks c ON c.id = e.from_chunk_id JOIN pages p ON p.id = c.page_id
     WHERE e.from_slug IS DISTINCT FROM p.slug
        OR e.from_line IS DISTINCT FROM coalesce((SELECT min(cs.start_line) FROM code_symbols cs
                                                  WHERE cs.chunk_id = e.from_chunk_id AND cs.qualified = e.from_symbol), c.start_line)`,
  )
  return rows
}

engineTest(t, "every edge carries its caller's file and line through import, added edges and page moves", async (t, { db }) => {
  await importRepo(db)
  const { rows } = await db.query<{ n: number; lines: number }>(`SELECT count(*)::int AS n, count(DISTINCT from_line)::int AS lines FROM code_edges_symbol WHERE from_slug IS NOT NULL`)
  t.ok(rows[0]!.n > 10 && rows[0]!.lines > 3, `${rows[0]!.n} edges on ${rows[0]!.lines} lines`)
  t.same(await misplacedEdges(db), [], 'after import')

  const page = await findPage(db, 'default', 'src/main.c')
  const [chunk] = await listChunks(db, page!.id)
  await addCodeEdges(db, [
    { fromChunkId: chunk!.id, toSymbolQualified: 'lib.open', edgeType: 'calls', sourceId: 'default', fromSymbol: 'tick' },
    { fromChunkId: chunk!.id, toChunkId: chunk!.id, edgeType: 'calls', sourceId: 'default' },
  ])
  t.same(await misplacedEdges(db), [], 'edges added through the engine operation')

  await db.query(`UPDATE pages SET slug = 'lib/main.c' WHERE slug = 'src/main.c'`)
  t.same(await misplacedEdges(db), [], 'after the page moved')
  const callers = await codeCallers(db, { symbol: 'tock' })
  t.same(
    callers.results.map((r) => r.slug),
    ['lib/main.c'],
    'the walk reads the new place',
  )

  await importPage(db, { slug: 'src/queue.ts', kind: 'code', path: 'src/queue.ts', content: `\n\n${REPO['src/queue.ts']!}` })
  t.same(await misplacedEdges(db), [], 'after a re-import moved every line down')
})

engineTest(t, 'callers come back in file and line order when the limit cuts them', async (t, { db }) => {
  const caller = (i: number): string => `export function caller${i}(): void {\n  sharedTarget()\n}\n`
  for (const file of ['src/b.ts', 'src/a.ts', 'src/c.ts']) {
    const body = [3, 1, 2].map(caller).join('\n') + '\n'.repeat(file === 'src/a.ts' ? 0 : 2)
    await importPage(db, { slug: file, kind: 'code', path: file, content: body })
  }
  await importPage(db, { slug: 'src/target.ts', kind: 'code', path: 'src/target.ts', content: 'export function sharedTarget(): void {}\n' })
  const all = await codeCallers(db, { symbol: 'sharedTarget' })
  t.equal(all.results.length, 9)
  const firstFour = await codeCallers(db, { symbol: 'sharedTarget', limit: 4 })
  t.ok(firstFour.truncated)
  t.same(
    firstFour.results.map((r) => `${r.slug}:${r.startLine}`),
    all.results.slice(0, 4).map((r) => `${r.slug}:${r.startLine}`),
  )
  t.same(
    firstFour.results.map((r) => r.slug),
    ['src/a.ts', 'src/a.ts', 'src/a.ts', 'src/b.ts'],
    'the first files by slug',
  )
  t.same(
    firstFour.results.map((r) => r.symbolNameQualified),
    ['caller3', 'caller1', 'caller2', 'caller3'],
    'by line within a file',
  )
})

engineTest(t, 'a limit cuts overlapping frontier items to a subset of the whole answer', async (t, { db }) => {
  // Two definitions of `helper` (ambiguous): bare calls reach both, qualified calls one.
  await importPage(db, { slug: 'src/x/alpha.ts', kind: 'code', path: 'src/x/alpha.ts', content: 'export function helper(): number {\n  return 1\n}\n' })
  await importPage(db, { slug: 'src/y/beta.ts', kind: 'code', path: 'src/y/beta.ts', content: 'export function helper(): number {\n  return 2\n}\n' })
  const callers = (file: string, n: number, call: string): string => Array.from({ length: n }, (_, i) => `export function ${file}Caller${i}(): number {\n  return ${call}()\n}\n`).join('\n')
  await importPage(db, { slug: 'src/m/bare.ts', kind: 'code', path: 'src/m/bare.ts', content: callers('bare', 4, 'helper') })
  await importPage(db, { slug: 'src/m/viaalpha.ts', kind: 'code', path: 'src/m/viaalpha.ts', content: callers('alpha', 3, 'alpha.helper') })
  await importPage(db, { slug: 'src/m/viabeta.ts', kind: 'code', path: 'src/m/viabeta.ts', content: callers('beta', 3, 'beta.helper') })
  const all = await codeCallers(db, { symbol: 'helper' })
  t.ok(all.ambiguous)
  const key = (r: { slug: string | null; symbolNameQualified: string | null }): string => `${r.slug}#${r.symbolNameQualified}`
  const whole = all.results.map(key)
  t.equal(new Set(whole).size, 10, 'four bare callers once each, three through each receiver')
  for (let limit = 1; limit <= 10; limit++) {
    const cut = await codeCallers(db, { symbol: 'helper', limit })
    const got = cut.results.map(key)
    t.equal(got.length, limit, `limit ${limit}: as many as asked`)
    t.equal(new Set(got).size, got.length, `limit ${limit}: no caller twice`)
    t.ok(
      got.every((k) => whole.includes(k)),
      `limit ${limit}: only callers of the whole answer`,
    )
    t.equal(cut.truncated, limit < 10)
  }
})
