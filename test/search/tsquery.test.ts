// test-runner: shares a process
import t from 'tap'
import { lexemeTsquery, MAX_PAIR_LEXEMES, quoteLexeme } from '../../src/search/tsquery.js'

t.test('lexemes are quoted for tsquery input', async (t) => {
  const cases: Array<[string, string]> = [
    ['cach', `'cach'`],
    ["o'neil", `'o''neil'`],
    ['back\\slash', `'back\\\\slash'`],
  ]
  for (const [lexeme, quoted] of cases) t.equal(quoteLexeme(lexeme), quoted, lexeme)
})

t.test('any and two-or-more tsqueries', async (t) => {
  const cases: Array<[string[], 'any' | 'two', string]> = [
    [[], 'any', ''],
    [[], 'two', ''],
    [[''], 'two', ''],
    [['a'], 'any', `'a'`],
    [['a'], 'two', `'a'`],
    [['a', 'b'], 'any', `'a' | 'b'`],
    [['a', 'b'], 'two', `'a' & 'b'`],
    [['a', 'b', 'c'], 'two', `('a' & 'b') | ('a' & 'c') | ('b' & 'c')`],
    [['a', 'a', 'b'], 'two', `'a' & 'b'`],
  ]
  for (const [lexemes, match, expected] of cases) t.equal(lexemeTsquery(lexemes, match), expected, `${match} ${lexemes.join(',')}`)
  const many = Array.from({ length: MAX_PAIR_LEXEMES + 1 }, (_, i) => `w${i}`)
  t.equal(lexemeTsquery(many, 'two'), many.map((w) => `'${w}'`).join(' | '), 'too many lexemes: any')
  const sixteen = many.slice(0, MAX_PAIR_LEXEMES)
  t.equal(lexemeTsquery(sixteen, 'two').split(' | ').length, (16 * 15) / 2, 'every pair')
})
