// test-runner: shares a process
import t from 'tap'
import { chunkCode } from '../../src/chunking/index.js'
import { getParser } from '../../src/chunking/grammar-loader.js'
import { grammarFor } from '../../src/chunking/languages.js'
import { parseWithinBudget } from '../../src/chunking/syntax.js'

const BODY = Array.from({ length: 40 }, (_, j) => `  const v${j} = a * ${j} + Math.sqrt(a + ${j}) - Math.floor(a / (${j} + 1))\n`).join('')
const SOURCE = Array.from({ length: 30 }, (_, i) => `export function f${i}(a: number): number {\n${BODY}  return a + ${i}\n}\n`).join('')

t.test('a parse past its budget is cut off, and the parser starts afresh after it', async (t) => {
  const parser = await getParser(grammarFor('typescript', 'a.ts'))
  t.equal(parseWithinBudget(parser, SOURCE, {}, -1), null, 'no time at all: cut off')
  const tree = parseWithinBudget(parser, 'export const answer = 42\n')
  t.ok(tree, 'the next parse runs')
  t.equal(tree!.rootNode.text, 'export const answer = 42\n', 'and parses its own text, not the rest of the cut-off one')
  t.notOk(tree!.rootNode.hasError)
  tree!.delete()
})

t.test('code chunked without parsing keeps its language', async (t) => {
  // Small, so that its parse stays far inside the wall-clock budget on a busy machine too.
  const small = SOURCE.split('\n')
    .slice(0, 3 * 43)
    .join('\n')
  const parsed = await chunkCode({ path: 'a.ts', content: small })
  const plain = await chunkCode({ path: 'a.ts', content: small, syntax: false })
  t.ok(
    parsed.some((c) => c.symbolName === 'f1'),
    'parsed chunks carry symbols',
  )
  t.ok(plain.length > 0 && plain.every((c) => c.language === 'typescript' && c.symbolName === null), 'line chunks keep the language, without symbols')
})
