// test-runner: shares a process
import t from 'tap'
import { buildCli } from '../../src/cli/main.js'
import { LONG_RUNNING, runsLong, tierFor } from '../../src/cli/wasm-tier.js'

t.test('commands that do bulk work or stay up keep the optimizing tier', async (t) => {
  for (const argv of [
    ['import', 'notes'],
    ['sync', '--all'],
    ['serve', '--http'],
    ['service', 'start', '--foreground'],
    ['jobs', 'work'],
    ['jobs', '--json', 'supervisor'],
    ['jobs', 'submit', 'embed', '--wait'],
    ['sources', 'add', 'notes', '--path', 'x', '--sync'],
    ['--json', 'embed', '--all'],
  ]) {
    t.ok(runsLong(argv), argv.join(' '))
  }
})

t.test('one-shot commands run on the baseline compiler', async (t) => {
  for (const argv of [['search', 'import'], ['get', 'notes/a'], ['list'], ['jobs', 'list'], ['init'], ['sources', 'list'], ['get', '--', 'import'], []]) {
    t.notOk(runsLong(argv), argv.join(' ') || '(no arguments)')
  }
})

t.test('every long-running command name is a command', async (t) => {
  const firstWords = new Set(
    buildCli()
      .definitions()
      .map((d) => d.path.split(' ')[1]),
  )
  for (const name of LONG_RUNNING) t.ok(firstWords.has(name), name)
})

t.test('BRAIN_WASM_TIER overrides the choice either way; any other value leaves it to the command', async (t) => {
  t.equal(tierFor(['serve', '--http'], 'baseline'), 'baseline')
  t.equal(tierFor(['search', 'x'], 'optimizing'), 'optimizing')
  t.equal(tierFor(['serve'], undefined), 'optimizing')
  t.equal(tierFor(['search', 'x'], 'auto'), 'baseline')
  t.equal(tierFor(['import', 'notes'], 'auto'), 'optimizing')
})
