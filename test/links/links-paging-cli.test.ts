import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

interface LinkPage {
  links: Array<{ from_slug: string; target_text: string }>
  total: number
  offset: number
}

const HUB_LINKS = 10_007

for (const engine of ENGINES) {
  t.test(`links and backlinks report the total and page with --offset [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const hub = Array.from({ length: HUB_LINKS }, (_, i) => `- [[target-${String(i).padStart(5, '0')}]]`).join('\n')
    const put = await brain.run(['put', 'notes/hub', '--no-embed'], { input: `# Hub\n\n${hub}\n` })
    t.equal(put.code, 0, put.stderr)

    const first = await brain.run(['links', 'notes/hub', '--json'])
    t.equal(first.code, 0, first.stderr)
    const firstPage = first.json<LinkPage>()
    t.equal(firstPage.links.length, 10_000, 'one page of 10,000 by default')
    t.equal(firstPage.total, HUB_LINKS, 'the total says there are more')
    t.equal(firstPage.offset, 0)
    const rest = (await brain.run(['links', 'notes/hub', '--offset', '10000', '--json'])).json<LinkPage>()
    t.same(
      rest.links.map((l) => l.target_text),
      ['target-10000', 'target-10001', 'target-10002', 'target-10003', 'target-10004', 'target-10005', 'target-10006'],
    )
    t.equal(rest.total, HUB_LINKS)
    const whole = await brain.run(['links', 'notes/hub', '--limit', '20000', '--json'])
    t.equal(whole.code, 0, whole.stderr)
    t.equal(whole.json<LinkPage>().links.length, HUB_LINKS, '--limit takes more than 10,000')
    const human = await brain.run(['links', 'notes/hub', '--no-json'])
    t.match(human.stdout, /\(showing 10000 of 10007, from 1; --offset 10000 for the next\)\n?$/)

    for (const from of ['a', 'b', 'c']) t.equal((await brain.run(['put', `notes/${from}`, '--no-embed'], { input: `Back to [[hub]].\n` })).code, 0)
    const back = (await brain.run(['backlinks', 'notes/hub', '--limit', '2', '--offset', '1', '--json'])).json<LinkPage>()
    t.same(
      back.links.map((l) => l.from_slug),
      ['notes/b', 'notes/c'],
    )
    t.equal(back.total, 3)
    const backText = await brain.run(['backlinks', 'notes/hub', '--limit', '2', '--no-json'])
    t.match(backText.stdout, /\(showing 2 of 3, from 1; --offset 2 for the next\)/)
  })
}
