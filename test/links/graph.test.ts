// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { graphWalk, listOrphans, listUnresolved, type GraphNode } from '../../src/links/index.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { importNote, importRepo, NOTE_SLUG } from '../code/fixture.js'

async function note(db: Database, slug: string, content: string): Promise<void> {
  await importPage(db, { slug, kind: 'markdown', content, path: `${slug}.md` })
}

const brief = (nodes: readonly GraphNode[]) => nodes.map((n) => [n.slug, n.depth, n.via, n.direction, n.path.join('>')])

engineTest(t, 'graph walk: cycles are cut, depth, direction, types and the cap', async (t, { db }) => {
  await note(db, 'a', '[[b]] ![[pic.png]]')
  await note(db, 'b', '---\nowner: "[[c]]"\n---\n[[c]]')
  await note(db, 'c', '[[a]] and ![[d]]')
  await note(db, 'd', 'leaf')
  const out = await graphWalk(db, { slug: 'a', depth: 5, direction: 'out' })
  t.same(
    brief(out.nodes),
    [
      ['b', 1, 'links_to', 'out', 'a>b'],
      ['c', 2, 'links_to', 'out', 'a>b>c'],
      ['d', 3, 'embeds', 'out', 'a>b>c>d'],
    ],
    'the cycle back to a is cut; c is reached once though two edges lead there',
  )
  t.equal(out.truncated, false)
  t.same(brief((await graphWalk(db, { slug: 'a', depth: 1, direction: 'out' })).nodes), [['b', 1, 'links_to', 'out', 'a>b']], 'depth 1')
  t.same(brief((await graphWalk(db, { slug: 'a', depth: 2, direction: 'in' })).nodes), [
    ['c', 1, 'links_to', 'in', 'a>c'],
    ['b', 2, 'links_to', 'in', 'a>c>b'],
  ])
  const both = await graphWalk(db, { slug: 'c', depth: 1 })
  t.same(both.nodes.map((n) => [n.slug, n.direction]).sort(), [
    ['a', 'out'],
    ['b', 'in'],
    ['d', 'out'],
  ])
  t.same(brief((await graphWalk(db, { slug: 'b', depth: 3, types: ['owner'], direction: 'out' })).nodes), [['c', 1, 'owner', 'out', 'b>c']], 'a property link type')
  const capped = await graphWalk(db, { slug: 'a', depth: 5, limit: 2, direction: 'out' })
  t.equal(capped.nodes.length, 2)
  t.equal(capped.truncated, true)
  const exact = await graphWalk(db, { slug: 'a', depth: 5, limit: 3, direction: 'out' })
  t.same(brief(exact.nodes), brief(out.nodes), 'a cap the walk just fits')
  t.equal(exact.truncated, false, 'a cap the walk just fits does not truncate it')
  const missing = await graphWalk(db, { slug: 'nope' }).then(
    () => null,
    (e: { code?: string }) => e,
  )
  t.equal(missing?.code, 'page_not_found')
})

engineTest(t, 'graph walk joins note links, citations and the code call graph', async (t, { db }) => {
  await importRepo(db)
  await importNote(db)
  await note(db, 'notes/index', '[[notes/design]]')
  const walk = await graphWalk(db, { slug: 'notes/index', depth: 3, direction: 'both', limit: 100 })
  const bySlug = new Map(walk.nodes.map((n) => [n.slug, n]))
  t.match(bySlug.get(NOTE_SLUG), { depth: 1, via: 'links_to', direction: 'out' })
  t.match(bySlug.get('src/queue.ts'), { depth: 2, via: 'documents', path: ['notes/index', NOTE_SLUG, 'src/queue.ts'] })
  t.match(bySlug.get('src/app.tsx'), { depth: 3, via: 'calls', direction: 'in', path: ['notes/index', NOTE_SLUG, 'src/queue.ts', 'src/app.tsx'] })
  const callsOnly = await graphWalk(db, { slug: 'src/app.tsx', depth: 1, types: ['calls'], direction: 'out' })
  t.same(
    callsOnly.nodes.map((n) => n.slug),
    ['src/queue.ts'],
    'app.tsx calls Queue.submit, defined on one page only',
  )
})

engineTest(t, 'orphans and wanted pages', async (t, { db }) => {
  await note(db, 'a', '[[Missing Page]] [[missing page]] [[b]]')
  await note(db, 'b', 'linked from a')
  await note(db, 'c', 'Also wants [[Missing Page]] and [[Other]].')
  await note(db, 'lonely', 'nothing links here, and it links nowhere')
  t.same(
    (await listOrphans(db)).map((p) => p.slug),
    ['lonely'],
  )
  t.same(
    await listUnresolved(db),
    [
      { target: 'Missing Page', key: 'missing-page', pages: 2, links: 2, examples: ['a', 'c'] },
      { target: 'Other', key: 'other', pages: 1, links: 1, examples: ['c'] },
    ],
    'case variants on one page are one link; most wanted first',
  )
  await note(db, 'missing-page', 'here now')
  t.same(
    (await listUnresolved(db)).map((w) => w.target),
    ['Other'],
  )
  await note(db, 'd', 'A picture ![[Chart.PNG]], a clip ![[talk.mp4#t=10]], [data](files/table.csv) and [[Plan v1.2]].')
  t.same(
    (await listUnresolved(db)).map((w) => w.target),
    ['Other', 'Plan v1.2'],
    'links to attachment files are not wanted pages',
  )
  t.same(
    (await listUnresolved(db, { attachments: true })).map((w) => w.target),
    ['Chart.PNG', 'files/table.csv', 'Other', 'Plan v1.2', 'talk.mp4'],
    'unless asked for',
  )
})
