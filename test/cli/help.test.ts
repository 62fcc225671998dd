import t from 'tap'
import { PassThrough } from 'node:stream'
import { runCli, buildCli } from '../../src/cli/main.js'

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
