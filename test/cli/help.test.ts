// test-runner: shares a process
import t from 'tap'
import { PassThrough } from 'node:stream'
import { Cli } from 'clipanion'
import { runCli, buildCli, commandsFor } from '../../src/cli/main.js'

async function help(path: string[]): Promise<string> {
  const stdout = new PassThrough()
  let text = ''
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const stderr = new PassThrough()
  await runCli([...path, '--help'], { stdin: new PassThrough(), stdout, stderr, env: {}, colorDepth: 1, cwd: process.cwd() })
  return text
}

t.test('every command names the values its options take', async (t) => {
  const paths = buildCli()
    .definitions()
    .map((d) => d.path.split(' ').slice(1))
    .filter((p) => p.length > 0)
  t.ok(paths.length > 40, `${paths.length} commands`)
  for (const path of paths) {
    const text = await help(path)
    t.match(text, new RegExp(`\\$ brain ${path.join(' ')}`), `brain ${path.join(' ')} --help prints its usage`)
    t.notMatch(text, /#\d/, `brain ${path.join(' ')}: no #0 placeholders`)
  }
  t.match(await help(['search']), /--limit <n>/)
  t.match(await help(['auth', 'create']), /--scopes <list>/)
})

t.test('a command line is read the same by the commands it names as by all of them', async (t) => {
  const all = buildCli()
  const paths = all
    .definitions()
    .map((d) => d.path.split(' ').slice(1))
    .filter((p) => p.length > 0)
  const lines = [
    ...paths.map((p) => [...p, 'x']),
    ...paths.map((p) => [...p, '--help']),
    ['search', 'import'],
    ['get', '--', 'import'],
    ['--json', 'embed', '--all'],
    ['jobs'],
    ['frobnicate'],
    ['frobnicate', 'list'],
    ['--version'],
    ['--help'],
    [],
  ]
  for (const argv of lines) {
    const chosen = commandsFor(argv)
    const read = (cli: ReturnType<typeof buildCli>): string => {
      try {
        return cli.process(argv, { ...Cli.defaultContext, cwd: process.cwd() }).constructor.name
      } catch (err) {
        return `error: ${(err as Error).constructor.name}`
      }
    }
    t.equal(read(buildCli(false, chosen)), read(all), `brain ${argv.join(' ')}`)
  }
  t.ok(commandsFor(['get', 'notes/a']).length < 5, 'a plain command line names few commands')
})
