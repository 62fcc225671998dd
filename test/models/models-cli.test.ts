import t from 'tap'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'
import { writeTinyEmbedder, writeTinyReranker } from './tiny-models.js'

interface Listing {
  models: Array<{ id: string; kind: string; active: boolean; reranker: boolean; vectors: number; dimensions: number | null }>
}

interface QueryJson {
  model: string | null
  ran: string[]
  reranker?: string
  results: Array<{ slug: string }>
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

for (const engine of ENGINES) {
  t.test(`brain models add, list, use and a re-ranked query [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const embedder = await writeTinyEmbedder(join(brain.home, 'downloads', 'tiny'), { dimensions: 12 })
    const reranker = await writeTinyReranker(join(brain.home, 'downloads', 'ce'), { favourite: 'zebra' })
    for (const [slug, body] of [
      ['notes/a', 'zebra lion'],
      ['notes/b', 'lion giraffe savanna river'],
      ['notes/c', 'zebra zebra zebra lion'],
    ]) {
      const put = await brain.run(['put', slug, '--no-embed'], { input: body })
      t.equal(put.code, 0, put.stderr)
    }

    const added = await brain.run(['models', 'add', embedder.dir, '--json'])
    t.equal(added.code, 0, added.stderr)
    t.match(added.json(), { id: 'tiny', kind: 'embedder', dimensions: 12, pooling: 'mean', normalize: true })
    const before = (await brain.run(['models', 'list', '--json'])).json<Listing>()
    t.match(before.models, [
      { id: 'use-lite', active: true },
      { id: 'tiny', active: false, vectors: 0 },
    ])

    const used = await brain.run(['models', 'use', 'tiny', '--json'])
    t.equal(used.code, 0, used.stderr)
    t.match(used.json(), { from: 'use-lite', to: 'tiny', embedded: 3, total: 3 })
    const hybrid = (await brain.run(['query', 'zebra', 'lion', '--json'])).json<QueryJson>()
    t.equal(hybrid.model, 'onnx:tiny', 'query embeds with the new active model')
    t.same(hybrid.ran, ['keyword', 'vector'])
    t.match((await brain.run(['models', 'list', '--json'])).json<Listing>().models, [
      { id: 'use-lite', active: false },
      { id: 'tiny', active: true, vectors: 3 },
    ])
    const again = await brain.run(['models', 'use', 'tiny', '--json'])
    t.match(again.json(), { switched: false }, 'using the active model again does nothing')

    t.equal((await brain.run(['models', 'add', reranker.dir, '--kind', 'reranker', '--id', 'ce', '--json'])).code, 0)
    t.equal((await brain.run(['config', 'set', 'search.reranker', 'ce'])).code, 0)
    const reranked = (await brain.run(['query', 'zebra', 'lion', '--json'])).json<QueryJson>()
    t.equal(reranked.reranker, 'ce')
    t.equal(reranked.results[0]?.slug, 'notes/c', 'the re-ranker puts the zebra page first')
    const off = (await brain.run(['query', 'zebra', 'lion', '--no-rerank', '--json'])).json<QueryJson>()
    t.equal(off.reranker, undefined, '--no-rerank skips it')

    const unknown = await brain.run(['models', 'use', 'nope', '--json'])
    t.equal(unknown.code, 1)
    t.equal(unknown.json<{ error: { code: string } }>().error.code, 'model_not_found')
    const notEmbedder = await brain.run(['models', 'use', 'ce', '--json'])
    t.equal(notEmbedder.json<{ error: { code: string } }>().error.code, 'model_not_embedder')

    const offline = await brain.run(['models', 'pull', 'acme/tiny', '--no-json'], { env: { BRAIN_MODEL_HUB: `http://127.0.0.1:${await closedPort()}` } })
    t.equal(offline.code, 1)
    t.match(offline.stderr, /Cannot reach the model hub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): offline, or the network does not allow it\./)
    t.notMatch(offline.stderr, /\n\s+at /, 'one line and a hint, no stack trace')
  })
}
