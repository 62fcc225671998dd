import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

for (const engine of ENGINES) {
  t.test(`brain links, backlinks, graph, orphans, unresolved [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const put = async (slug: string, content: string) => {
      const r = await brain.run(['put', slug, '--no-embed'], { input: content })
      t.equal(r.code, 0, r.stderr)
    }
    await put('notes/a', 'See [[b|Bee]] and ![[diagram.png]].\n\nAlso [[b#Part]].')
    await put('notes/b', 'Back to [[a]].')
    await put('notes/alone', 'Nobody.')

    const links = await brain.run(['links', 'notes/a', '--json'])
    t.equal(links.code, 0, links.stderr)
    t.match(links.json<{ links: unknown[] }>().links, [
      { link_type: 'embeds', to_slug: null, target_text: 'diagram.png', line: 1 },
      { link_type: 'links_to', to_slug: 'notes/b', shown_text: 'Bee', line: 1, context: 'See [[b|Bee]] and ![[diagram.png]].' },
      { link_type: 'links_to', to_slug: 'notes/b', anchor: 'Part', line: 3 },
    ])
    t.equal(links.json().total, 3)
    const typed = await brain.run(['links', 'notes/a', '--type', 'embeds', '--no-json'])
    t.match(typed.stdout, /^embeds +diagram\.png \(unresolved\) \(wikilink, compiled_truth\) line 1\n +See/)
    const back = await brain.run(['backlinks', 'notes/b', '--no-json'])
    t.match(back.stdout, /links_to +notes\/a \(wikilink, compiled_truth\) line 1/)
    t.match(back.stdout, /links_to +notes\/a#Part/)

    const graph = await brain.run(['graph', 'notes/b', '--depth', '2', '--direction', 'out', '--json'])
    t.equal(graph.code, 0, graph.stderr)
    t.match(graph.json(), { start: { slug: 'notes/b' }, nodes: [{ slug: 'notes/a', depth: 1, path: ['notes/b', 'notes/a'] }], truncated: false })
    const human = await brain.run(['graph', 'notes/b', '--no-json'])
    t.match(human.stdout, /→ links_to {2}notes\/a {2}\[depth 1\]/)
    await put('notes/c', 'Builds on [[a]].')
    const deeper = await brain.run(['graph', 'notes/b', '--depth', '2', '--no-json'])
    t.match(deeper.stdout, /→ links_to {2}notes\/a {2}\[depth 1\]\n {4}← links_to {2}notes\/c {2}\[depth 2, from notes\/a\]/, 'a deeper page names the page it was reached from')
    const badDirection = await brain.run(['graph', 'notes/b', '--direction', 'sideways', '--json'])
    t.match(badDirection.json(), { error: { class: 'UsageError', code: 'graph_invalid_direction' } })
    const noSlug = await brain.run(['links', '--json'])
    t.match(noSlug.json(), { error: { code: 'links_requires_slug' } })

    t.match((await brain.run(['orphans', '--json'])).json(), { pages: [{ slug: 'notes/alone' }] })
    t.equal((await brain.run(['unresolved', '--no-json'])).stdout.trim(), 'No unresolved links.', 'a picture is not a wanted page')
    t.match((await brain.run(['unresolved', '--attachments', '--no-json'])).stdout, /^ +1 {2}diagram\.png {2}\(from notes\/a\)/)
  })
}
