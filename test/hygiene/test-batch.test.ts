/**
 * The suite's runner puts test files that say they share a process into one node process a few at
 * a time (scripts/run-tests.mjs, scripts/test-batch.mjs). Sharing must not change what a file
 * finds or how it is reported: each file starts only once the subtests of the one before it have
 * ended, a file that cannot be loaded fails the batch without stopping the files after it, and a
 * batch is reported under its files' names.
 */
import t, { type Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageRoot } from '../../src/util/index.js'

const root = packageRoot()
const TAP = import.meta.resolve('tap')

function fixtures(t: Test, files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'brain-test-batch-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return Object.entries(files).map(([name, body]) => {
    const path = join(dir, name)
    writeFileSync(path, `// test-runner: shares a process\nimport t from ${JSON.stringify(TAP)}\n${body}\n`)
    return path
  })
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const first = `console.log('first loaded')
t.test('first, slow', async (t) => {
  await new Promise((resolve) => setTimeout(resolve, 200))
  console.log('first ended')
  t.pass('slow')
})`
const second = `console.log('second loaded')
t.test('second', async (t) => t.pass('second ran'))`

t.test('files in one process run one after another, and a file that cannot load fails alone', async (t) => {
  const [a, broken, b] = fixtures(t, { 'a.test.mjs': first, 'broken.test.mjs': "throw new Error('no such thing')", 'b.test.mjs': second })
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'test-batch.mjs'), a!, broken!, b!], { encoding: 'utf8', env: { ...process.env, TAP: '1' } })
  const out = run.stdout
  t.ok(out.indexOf('first ended') >= 0 && out.indexOf('first ended') < out.indexOf('second loaded'), 'the second file loads only after the first one’s subtests ended')
  t.match(out, /ok \d+ - second ran/, 'the file after the broken one ran')
  t.match(out, /not ok \d+ - .*broken\.test\.mjs could not be loaded/, 'the broken file is a failure by name')
  t.not(run.status, 0, 'and the batch fails')
})

t.test('the runner puts the files that share a process into one, reported under their names', async (t) => {
  const [a, b] = fixtures(t, { 'a.test.mjs': first, 'b.test.mjs': second })
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'run-tests.mjs'), '--jobs', '2', a!, b!], { encoding: 'utf8' })
  t.equal(run.status, 0, run.stdout)
  t.match(run.stdout, new RegExp(`^ok 1 - ${escaped(`${a!}+${b!}`)} # time=`, 'm'), 'reported under both names')
  t.match(run.stdout, /^1\.\.1$/m, 'one process for both')
  const alone = spawnSync(process.execPath, [join(root, 'scripts', 'run-tests.mjs'), a!, b!], { encoding: 'utf8', env: { ...process.env, BRAIN_TEST_BATCH_SIZE: '1' } })
  t.equal(alone.status, 0, alone.stdout)
  t.match(alone.stdout, /^1\.\.2$/m, 'and one each when asked')
})
