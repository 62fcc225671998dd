// test-runner: shares a process
import t from 'tap'
import { codeCallers, type CodeGraphNode } from '../../src/code/index.js'
import type { Database } from '../../src/db/types.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { importRepo, REPO } from './fixture.js'

/** The repository again under `copy/`: every name gets a second definition in a file of the same name. */
async function importCopy(db: Database): Promise<void> {
  for (const [path, content] of Object.entries(REPO)) await importPage(db, { slug: `copy/${path}`, kind: 'code', content, path: `copy/${path}` })
}

const key = (r: CodeGraphNode, prefix = ''): string => `${prefix}${r.slug}|${r.symbolNameQualified}|${r.depth}`

engineTest(t, "callers of a name defined in several copies: each copy's callers, once, at their own depth", async (t, { db }) => {
  await importRepo(db)
  const single = await codeCallers(db, { symbol: 'store', depth: 5 })
  t.ok(single.results.length >= 3, 'the walk reaches several levels')
  await importCopy(db)
  const doubled = await codeCallers(db, { symbol: 'store', depth: 5 })
  t.equal(doubled.ambiguous, true, 'two definitions')
  t.equal(doubled.truncated, false)
  const expected = single.results.flatMap((r) => [key(r), key(r, 'copy/')]).sort()
  t.same(doubled.results.map((r) => key(r)).sort(), expected, 'the callers of both copies, none twice')
})

engineTest(t, 'the limit cuts a fanned-out walk exactly, and says so only when it did', async (t, { db }) => {
  await importRepo(db)
  await importCopy(db)
  const all = await codeCallers(db, { symbol: 'enqueue', depth: 5, limit: 1000 })
  const n = all.results.length
  t.ok(n >= 4, `${n} callers in all`)
  t.equal(all.truncated, false)
  const everyKey = new Set(all.results.map((r) => key(r)))
  for (let limit = 1; limit <= n; limit++) {
    const capped = await codeCallers(db, { symbol: 'enqueue', depth: 5, limit })
    t.equal(capped.results.length, limit, `limit ${limit}: that many results`)
    t.equal(capped.truncated, limit < n, `limit ${limit}: truncated only below ${n}`)
    t.ok(
      capped.results.every((r) => everyKey.has(key(r))),
      `limit ${limit}: a subset of the whole walk`,
    )
    // Nearer callers are found first: a cut never keeps a deeper caller while dropping a nearer one.
    const maxDepth = Math.max(...capped.results.map((r) => r.depth))
    t.ok(
      all.results.filter((r) => r.depth < maxDepth).every((r) => capped.results.some((c) => key(c) === key(r))),
      `limit ${limit}: walk order`,
    )
  }
})
