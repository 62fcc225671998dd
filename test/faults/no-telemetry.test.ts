import t from 'tap'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cliBrain } from '../helpers/cli.js'

t.test('embedding with the local model writes nothing outside BRAIN_HOME', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'in-process' })
  t.teardown(brain.cleanup)
  const home = mkdtempSync(join(tmpdir(), 'brain-empty-home-'))
  const env = { HOME: home, XDG_CACHE_HOME: '' }
  const put = await brain.run(['put', 'notes/private'], { input: '# Private\n\nA thought that stays on this machine.\n', env })
  t.equal(put.code, 0, put.stderr)
  const embedded = await brain.run(['embed', '--stale'], { env })
  t.equal(embedded.code, 0, embedded.stderr)
  const query = await brain.run(['query', 'a thought on this machine', '--json'], { env })
  t.equal(query.code, 0, query.stderr)
  t.match(query.stdout, /notes\/private/, 'the local model answered')
  t.same(readdirSync(home, { recursive: true }), [], 'HOME is left empty: no telemetry queue, no device id')
})
