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
    t.ok(callees.results.some((r) => r.symbolName === calleeName && r.depth === 1), `${language}: ${caller} → ${callee} as a callee`)
  }
  const callees = await codeCallees(db, { symbol: 'enqueue' })
  const audit = callees.results.find((r) => r.symbolName === 'audit')
  t.match(audit, { file: null, chunkId: null, via: 'symbol', candidates: 0 }, 'a callee defined outside the brain is a by-name leaf')
  t.match(callees.results.find((r) => r.symbolName === 'store'), { file: 'src/queue.ts', startLine: 19, path: ['enqueue', 'store'] })
})

engineTest(t, 'a transitive walk carries depth and path, stops at a cycle and at the cap', async (t, { db }) => {
  await importRepo(db)
  const direct = await codeCallers(db, { symbol: 'store' })
  t.same(direct.results.map((r) => [r.symbolNameQualified, r.depth]), [['enqueue', 1]])
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
  t.notOk(calleesDeep.results.some((r) => r.symbolNameQualified === 'enqueue' && r.depth > 1), 'enqueue ← store cycle walked once')

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
  t.same(callees.results.map((r) => [r.file, r.candidates]).sort(), [['app/dup_b.py', 2], ['src/dup_a.ts', 2]], 'both candidates, each marked as one of two')
  const local = await codeCallees(db, { symbol: 'useDuplicate' })
  t.same(local.results.map((r) => [r.file, r.candidates]), [['src/dup_a.ts', 1]], 'a call resolved on its own page is not ambiguous')
})

engineTest(t, 're-import replaces a page\'s edges; deleting the page removes them', async (t, { db }) => {
  await importRepo(db, {}, ['src/main.c'])
  t.same((await codeCallers(db, { symbol: 'tock' })).results.map((r) => r.symbolNameQualified), ['tick'])
  await importPage(db, { slug: 'src/main.c', kind: 'code', path: 'src/main.c', content: REPO['src/main.c']!.replace('tock();', 'tack();') })
  t.same((await codeCallers(db, { symbol: 'tock' })).results, [], 'the old edge is gone')
  t.same((await codeCallers(db, { symbol: 'tack' })).results.map((r) => r.symbolNameQualified), ['tick'])
  const page = await findPage(db, 'default', 'src/main.c')
  const count = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM code_edges_symbol) + (SELECT count(*) FROM code_edges_chunk) + (SELECT count(*) FROM code_symbols) AS n`,
    )
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
  const err = await addCodeEdges(db, [{ fromChunkId: chunk!.id, edgeType: 'calls', sourceId: 'default' }]).then(() => null, (e: unknown) => e)
  t.ok(isBrainError(err) && err.code === 'code_edge_requires_target')
})
