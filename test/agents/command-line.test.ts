/** `--command` split as a shell splits it, and quoted back into hook command lines unchanged. */
import { execFileSync } from 'node:child_process'
import t from 'tap'
import { splitCommandLine } from '../../src/agents/index.js'
import { shellJoin } from '../../src/agents/command-line.js'

t.test('words, quotes and escapes', async (t) => {
  t.same(splitCommandLine('node /opt/brain/bin/brain.js'), ['node', '/opt/brain/bin/brain.js'])
  t.same(splitCommandLine(`  "/Applications/My Tools/node"  '/x y/brain.js' --flag\\ value `), ['/Applications/My Tools/node', '/x y/brain.js', '--flag value'])
  t.same(splitCommandLine(`"a\\"b" 'it''s' ""`), ['a"b', 'its', ''])
  t.throws(() => splitCommandLine('node "/opt/brain'), { code: 'invalid_command' })
  t.throws(() => splitCommandLine('   '), { code: 'invalid_command' })
})

t.test('a split command quoted back gives the same words to sh', async (t) => {
  const words = ['/tmp/a b/node', "it's", '$HOME', 'x;y', '']
  const echoed = execFileSync('sh', ['-c', `printf '%s\\n' ${shellJoin(words)}`], { encoding: 'utf8' })
  t.same(echoed.split('\n').slice(0, -1), words)
  t.same(splitCommandLine(shellJoin(words.slice(0, 4))), words.slice(0, 4))
})
