// test-runner: shares a process
/**
 * Graph-aware ranking on both engines: with equal text, the result the other results link to
 * ranks first with graph_boost, and the plain order comes back without it.
 */
import t from 'tap'
import { loadConfig } from '../../src/config/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, search, searchDeps } from '../../src/search/index.js'
import { boostByLinks, GRAPH_INDEGREE_WEIGHT, GRAPH_LINK_WEIGHT } from '../../src/search/graph-boost.js'
import type { SearchResult } from '../../src/search/types.js'
import { engineTest } from '../helpers/engines.js'

engineTest(t, 'graph_boost lifts the page the other results link to', async (t, { db }) => {
  const put = (slug: string, content: string) => importPage(db, { slug, kind: 'markdown', content })
  await put('notes/a-plain', '# Plain\n\nThe quokka colony on the island.\n')
  await put('notes/b-linked', '# Linked\n\nThe quokka colony on the island.\n')
  await put('notes/c-neighbour', '# Neighbour\n\nQuokka sightings, see [[notes/b-linked]].\n')
  await put('notes/d-neighbour', '# Other\n\nMore quokka notes, see [[notes/b-linked]].\n')
  const ctx = searchDeps(db, loadConfig({ env: { BRAIN_HOME: '/nonexistent' } }))
  const plain = await search(ctx, 'quokka colony island', { limit: 2 })
  t.same(
    plain.results.map((r) => r.slug),
    ['notes/a-plain', 'notes/b-linked'],
    'equal text: slug order',
  )
  const boosted = await search(ctx, 'quokka colony island', { limit: 2, graphBoost: true })
  t.same(
    boosted.results.map((r) => r.slug),
    ['notes/b-linked', 'notes/a-plain'],
    'the linked page first',
  )
  t.ok(boosted.results[0]!.score > plain.results[0]!.score, 'its score was multiplied')
  const off = await search(ctx, 'quokka colony island', { limit: 2, graphBoost: false })
  t.same(
    off.results.map((r) => r.slug),
    plain.results.map((r) => r.slug),
    'off restores the plain order',
  )
  const hybrid = await query(ctx, 'quokka colony island', { limit: 2, graphBoost: true })
  t.equal(hybrid.results[0]!.slug, 'notes/b-linked', 'hybrid search takes the same boost')
  const paged = await search(ctx, 'quokka colony island', { limit: 1, offset: 1, graphBoost: true })
  t.same(
    paged.results.map((r) => r.slug),
    ['notes/a-plain'],
    'offset applies after the boost',
  )
})

t.test('the formula: linked results and inbound links multiply the score', async (t) => {
  const result = (slug: string, score: number) => ({ slug, source_id: 'default', score }) as SearchResult
  const out = boostByLinks(
    [result('x', 1), result('y', 1)],
    new Map([
      [0, { linked: 0, inbound: 0 }],
      [1, { linked: 3, inbound: 4 }],
    ]),
  )
  t.equal(out[0]!.slug, 'y')
  t.equal(out[0]!.score, 1 + GRAPH_LINK_WEIGHT + GRAPH_INDEGREE_WEIGHT, 'saturated link term and the window maximum of inbound links')
  t.equal(out[1]!.score, 1, 'no evidence, no boost')
})
