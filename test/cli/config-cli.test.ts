import t from 'tap'
import { ENGINES } from '../helpers/engines.js'
import { cliBrain, servedCliMode } from '../helpers/cli.js'

interface Entry {
  key: string
  value: string | null
  default: boolean
}

for (const engine of ENGINES) {
  t.test(`config get and list show the value in effect and whether it is the default [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)

    const fresh = await brain.run(['config', 'get', 'history.max_versions'])
    t.equal(fresh.code, 0, fresh.stderr)
    t.same(fresh.json<Entry>(), { key: 'history.max_versions', value: '100', default: true })
    const freshText = await brain.run(['config', 'get', 'history.max_versions', '--no-json'])
    t.equal(freshText.stdout.trim(), '100 (default)')

    t.equal((await brain.run(['config', 'set', 'history.max_versions', '7'])).code, 0)
    t.same((await brain.run(['config', 'get', 'history.max_versions'])).json<Entry>(), { key: 'history.max_versions', value: '7', default: false })
    t.equal((await brain.run(['config', 'get', 'history.max_versions', '--no-json'])).stdout.trim(), '7')

    const unset = await brain.run(['config', 'get', 'no.such.key'])
    t.same(unset.json<Entry>(), { key: 'no.such.key', value: null, default: true }, 'a key with no default and no value is null')
    t.equal((await brain.run(['config', 'get', 'no.such.key', '--no-json'])).code, 1)

    const list = await brain.run(['config', 'list'])
    t.equal(list.code, 0, list.stderr)
    const entries = list.json<Entry[]>()
    t.same(
      entries.find((e) => e.key === 'history.max_versions'),
      { key: 'history.max_versions', value: '7', default: false },
    )
    t.same(
      entries.find((e) => e.key === 'history.trash_retention'),
      { key: 'history.trash_retention', value: '30d', default: true },
    )
    t.same(
      entries.map((e) => e.key),
      [...entries.map((e) => e.key)].sort(),
      'listed by key',
    )
    const listText = (await brain.run(['config', 'list', '--no-json'])).stdout
    t.match(listText, /^history\.max_versions = 7$/m)
    t.match(listText, /^auto_link = true \(default\)$/m)
  })
}
