// test-runner: shares a process
import t from 'tap'
import { formatResults } from '../../src/operations/search.js'
import { markMatches, matchSpans, plainSnippetText } from '../../src/search/index.js'
import { makeSnippet } from '../../src/search/rows.js'

t.test('wikilinks read as the text they show', async (t) => {
  const cases: Array<[string, string]> = [
    ['see [[Page]] now', 'see Page now'],
    ['see [[people/ada|Ada Lovelace]] now', 'see Ada Lovelace now'],
    ['see [[Page#Setup]]', 'see Page > Setup'],
    ['see [[Page#^b15695]]', 'see Page'],
    ['see [[Page#^b15695|that line]]', 'see that line'],
    ['embed ![[diagram.png]] here', 'embed diagram.png here'],
    ['two [[a]] and [[b|B]]', 'two a and B'],
    ['empty alias [[Page|]]', 'empty alias Page'],
    ['not a link [[ unclosed', 'not a link [[ unclosed'],
  ]
  for (const [input, expected] of cases) t.equal(plainSnippetText(input), expected, input)
})

t.test('block ids go, carets inside text stay', async (t) => {
  t.equal(plainSnippetText('A fact worth citing. ^b15695\nNext line'), 'A fact worth citing. \nNext line')
  t.equal(plainSnippetText('^intro-2\nbody'), '\nbody', 'an id alone on its line')
  t.equal(plainSnippetText('x^2 grows and 2^10 is 1024'), 'x^2 grows and 2^10 is 1024', 'exponents are not block ids')
  t.equal(plainSnippetText('ends with x^2'), 'ends with x^2', 'a caret glued to a word is not a block id')
})

t.test('tables lose their pipes and delimiter rows', async (t) => {
  const table = ['| name | role |', '| --- | :---: |', '| Ada | maths \\| engines |', '| Alan | codes |', '', 'after | the table'].join('\n')
  t.equal(plainSnippetText(table), ['name  role', '', 'Ada  maths | engines', 'Alan  codes', '', 'after | the table'].join('\n'))
  t.equal(plainSnippetText('a | b\n---|---\n1 | 2'), 'a  b\n\n1  2', 'a table without outer pipes')
  t.equal(plainSnippetText('| lone row |'), 'lone row', 'a piped line is a table row')
})

t.test('a snippet of a note is plain text', async (t) => {
  const note = '# Visit\n\n| who | where |\n|---|---|\n| [[people/ada|Ada]] | [[London]] |\n\nWe met quokkas. ^b15695\n'
  t.equal(makeSnippet(plainSnippetText(note), ['quokkas'], 200), 'Visit who where Ada London We met quokkas.')
})

t.test('matched words are found whole, by their first four letters', async (t) => {
  t.same(matchSpans('Caching layer caches', ['caches']), [
    [0, 7],
    [14, 20],
  ])
  t.same(matchSpans('no match', ['absent']), [])
  t.same(matchSpans('ab abc', ['ab', 'abc']), [
    [0, 2],
    [3, 6],
  ])
  t.equal(
    markMatches('Quokkas and a quokka', ['quokkas'], (w) => `<${w}>`),
    '<Quokkas> and a <quokka>',
  )
})

t.test('the CLI text marks matches only when asked to', async (t) => {
  const response = { query: 'quokkas', results: [{ score: 1, slug: 'notes/a', snippet: 'We met quokkas.' } as never] }
  t.equal(formatResults(response), '[1.0000] notes/a -- We met quokkas.')
  t.equal(
    formatResults(response, (text) => markMatches(text, ['quokkas'], (w) => `*${w}*`)),
    '[1.0000] notes/a -- We met *quokkas*.',
  )
})
