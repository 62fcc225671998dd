import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBrain } from '../helpers/cli.js'

t.test('a service that cannot start is one line with a hint, never a stack trace', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-no-service-'))
  const notAFolder = join(dir, 'home-is-a-file')
  writeFileSync(notAFolder, 'not a folder\n')
  const env = { BRAIN_HOME: notAFolder, BRAIN_NO_SERVICE: '0' }
  const human = await runBrain(['list', '--no-json'], env)
  t.equal(human.code, 1)
  t.match(human.stderr, /^brain: /)
  t.notMatch(human.stderr, /\n\s+at /, 'no stack frames')
  const json = await runBrain(['list', '--json'], env)
  t.equal(json.code, 1)
  t.match(json.json(), { error: { class: /\w/, code: /\w/ } }, 'the error envelope in JSON mode')
})
