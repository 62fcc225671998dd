import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

t.test('get --version reads a page version through the resident service', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  await brain.run(['put', 'notes/svc', '--no-embed'], { input: '# Svc\n\none\n' })
  await brain.run(['put', 'notes/svc', '--no-embed'], { input: '# Svc\n\ntwo\n' })
  const version = await brain.run(['get', 'notes/svc', '--version', '1', '--json'])
  t.equal(version.code, 0, version.stderr)
  t.match(version.json(), { version: 1, markdown: /one/ }, 'not refused because the service holds the brain')
  t.match((await brain.run(['--version'])).stdout, /\d+\.\d+\.\d+\.\d+/, 'the program version still answers')
})

for (const engine of ENGINES) {
  t.test(`history, diff, revert, delete and the trash on the command line [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    t.equal((await brain.run(['put', 'notes/cli', '--no-embed'], { input: '# CLI\n\nfirst\n' })).code, 0)
    t.equal((await brain.run(['put', 'notes/cli', '--no-embed'], { input: '# CLI\n\nsecond\n' })).code, 0)

    const history = await brain.run(['history', 'notes/cli', '--json'])
    t.equal(history.code, 0, history.stderr)
    t.match(history.json(), {
      versions: [
        { number: 2, current: true },
        { number: 1, current: false },
      ],
    })
    const text = await brain.run(['history', 'notes/cli', '--no-json'])
    t.match(text.stdout, /^\s+2 .*put_page.*\(current\)\n\s+1 /m)

    const version = await brain.run(['get', 'notes/cli', '--version', '1', '--json'])
    t.match(version.json(), { version: 1, markdown: /first/ })
    const diff = await brain.run(['diff', 'notes/cli', '--json'])
    t.match(diff.json(), { from: 1, to: 2, diff: /-first\n\+second/ })
    t.match((await brain.run(['diff', 'notes/cli', '1', '2', '3', '--json'])).json(), { error: { class: 'UsageError', code: 'diff_too_many_versions' } })
    t.match((await brain.run(['diff', 'notes/cli', 'x', '--json'])).json(), { error: { code: 'diff_invalid_version' } })

    const reverted = await brain.run(['revert', 'notes/cli', '--to', '1', '--no-embed', '--json'])
    t.match(reverted.json(), { reverted_to: 1, version: 3, status: 'updated' })
    t.match((await brain.run(['revert', 'notes/cli', '--to', '9', '--json'])).json(), { error: { code: 'version_not_found' } })

    const hard = await brain.run(['delete', 'notes/cli', '--hard', '--json'])
    t.equal(hard.code, 2, 'a hard delete asks first')
    t.match(hard.json(), { error: { class: 'ConfirmationRequired', code: 'hard_delete_unconfirmed' } })
    t.match((await brain.run(['delete', 'notes/cli', '--json'])).json(), { deleted: true, trashed: true })
    t.match((await brain.run(['get', 'notes/cli', '--json'])).json(), { error: { code: 'page_not_found' } }, 'a trashed page is not found')
    t.match((await brain.run(['trash', 'list', '--json'])).json(), { pages: [{ slug: 'notes/cli' }] })
    t.match((await brain.run(['trash', 'restore', 'notes/cli', '--json'])).json(), { slug: 'notes/cli', renamed: false })
    t.match((await brain.run(['get', 'notes/cli', '--json'])).json(), { compiled_truth: /first/ })
    t.equal((await brain.run(['delete', 'notes/cli', '--hard', '--yes', '--json'])).code, 0)
    t.match((await brain.run(['trash', 'purge', '--older-than', '30d', '--json'])).json(), { purged: 0 })
    t.match((await brain.run(['trash', 'purge', '--older-than', 'soon', '--json'])).json(), { error: { code: 'invalid_duration' } })
  })
}
