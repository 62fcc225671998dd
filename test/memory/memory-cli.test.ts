import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

for (const engine of ENGINES) {
  t.test(`brain recall and remember [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const put = async (slug: string, content: string) => {
      const r = await brain.run(['put', slug, '--no-embed'], { input: content })
      t.equal(r.code, 0, r.stderr)
    }
    await put('people/noor-wrenhaven', '---\ntitle: Noor Wrenhaven\ntype: person\naliases: [noor]\nsummary: Founder of Windrose.\n---\n\nNoor runs Windrose.\n')
    await put('companies/windrose', '---\ntitle: Windrose\ntype: company\nsummary: Seed-stage company.\n---\n\nWindrose.\n')

    const human = await brain.run(['recall', 'Catch', 'me', 'up', 'on', 'Noor', '--no-json'])
    t.equal(human.code, 0, human.stderr)
    t.equal(human.stdout, 'Noor Wrenhaven (person, people/noor-wrenhaven): Founder of Windrose.\n', 'one line a page')
    t.equal((await brain.run(['recall', 'thanks, that covers it', '--no-json'])).stdout, 'Nothing to volunteer.\n')
    const unknown = await brain.run(['recall', 'Noor', '--source', 'nope', '--json'])
    t.equal(unknown.code, 1)
    t.match(unknown.json(), { error: { code: 'source_not_found' } }, 'an unknown source is refused as put refuses it')

    const piped = await brain.run(['recall', '--stdin', '--session', 'cli-1', '--json'], { input: 'Prep my call with Noor Wrenhaven about Windrose' })
    t.equal(piped.code, 0, piped.stderr)
    t.match(piped.json(), {
      inject: [
        { slug: 'people/noor-wrenhaven', source_id: 'default', title: 'Noor Wrenhaven', type: 'person', reason: /noor wrenhaven/, excerpt: 'Founder of Windrose.' },
        { slug: 'companies/windrose' },
      ],
      session: 'cli-1',
    })
    t.ok(Number(piped.json().tokens) > 0)
    t.same((await brain.run(['recall', '--stdin', '--session', 'cli-1', '--json'], { input: 'Noor again' })).json(), { inject: [], tokens: 0, session: 'cli-1' }, 'once per session')

    const remembered = await brain.run(['remember', 'We', 'decided', 'to', 'pass', 'on', 'the', 'Windrose', 'round', '--harness', 'codex', '--session', 'cli-1', '--json'])
    t.equal(remembered.code, 0, remembered.stderr)
    t.match(remembered.json(), {
      written: [{ slug: 'companies/windrose', status: 'updated', entry: /^- \*\*\d{4}-\d{2}-\d{2}\*\* \| We decided to pass on the Windrose round$/ }],
      harness: 'codex',
      session: 'cli-1',
    })
    const about = await brain.run(['remember', 'Sent the intro', '--about', 'people/noor-wrenhaven', '--no-json'])
    t.match(about.stdout, /^remembered on people\/noor-wrenhaven: - \*\*/)
    const history = await brain.run(['history', 'companies/windrose', '--json'])
    t.match(history.json(), { versions: [{ current: true, via: 'remember', by: 'harness=codex session=cli-1' }] }, 'provenance in the history')

    const later = await brain.run(['recall', 'Where did we land on Windrose?', '--session', 'claude-2', '--budget', '100', '--json'])
    t.match(later.json(), { inject: [{ slug: 'companies/windrose', excerpt: /We decided to pass on the Windrose round/ }] }, 'continuity across sessions and harnesses')
    t.ok(Number(later.json().tokens) <= 100)

    const bare = await brain.run(['recall', '--json'])
    t.equal(bare.code, 1)
    t.match(bare.json(), { error: { code: 'requires_text' } })
    const nobody = await brain.run(['remember', 'nothing named', '--json'])
    t.equal(nobody.code, 1)
    t.match(nobody.json(), { error: { class: 'ValidationError', code: 'remember_nothing_named' } })
  })
}
