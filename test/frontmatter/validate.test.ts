// test-runner: shares a process
import t from 'tap'
import { FIXABLE_CODES, fixFrontmatter, lintFindings, LINT_RULES, PARSE_VALIDATION_CODES, validateFrontmatter, type ParseValidationCode } from '../../src/frontmatter/index.js'

const expected = { slug: 'notes/a' }

function codes(text: string): [ParseValidationCode, number][] {
  return validateFrontmatter(text, { expected }).map((e) => [e.code, e.line])
}

t.test('a clean page has no errors', async (t) => {
  t.same(codes('---\ntitle: A\nslug: notes/a\ntags: [x, y]\n---\n# A\n'), [])
  t.same(codes('---\r\ntitle: A\r\n---\r\nbody\r\n'), [], 'CRLF line endings are fine')
  t.same(codes('---\ntitle: "quoted \\"ok\\""\nname: \'it\'\'s\'\n---\n'), [], 'escaped quotes are not nested quotes')
})

t.test('each of the seven codes, with its line', async (t) => {
  t.same(codes('# Just a note\n'), [['MISSING_OPEN', 1]])
  t.same(codes(''), [['MISSING_OPEN', 1]], 'an empty file has no front matter')
  t.same(codes('---\ntitle: A\n\n# Heading\n'), [['MISSING_CLOSE', 1]])
  t.same(codes('---\ntitle: A\ntags: [x\n---\nbody\n'), [['YAML_PARSE', 3]])
  t.same(codes('---\njust a sentence\n---\n'), [['YAML_PARSE', 2]], 'a scalar is not a mapping')
  t.same(codes('---js\n{ title: 1 }\n---\n'), [['YAML_PARSE', 1]], 'executable front matter is refused, never run')
  t.same(codes('---\ntitle: A\nslug: elsewhere/b\n---\n'), [['SLUG_MISMATCH', 3]])
  t.same(codes('---\ntitle: A\n---\nbo\u0000dy\n'), [['NULL_BYTES', 4]])
  t.same(codes('---\ntitle: "He said "hi" there"\n---\n'), [['NESTED_QUOTES', 2]])
  t.same(codes("---\nname: 'it's'\n---\n"), [['NESTED_QUOTES', 2]], 'single quotes too')
  t.same(codes('---\n\n---\nbody\n'), [['EMPTY_FRONTMATTER', 1]])
  t.same(codes('---\n# only a comment\n---\nbody\n'), [['EMPTY_FRONTMATTER', 1]])
  const all = new Set<string>()
  for (const text of ['# x', '---\na: 1\n', '---\na: [\n---\n', '---\nslug: x\n---\n', '\u0000', '---\na: "b"c"\n---\n', '---\n---\n']) {
    for (const e of validateFrontmatter(text, { expected })) all.add(e.code)
  }
  t.same([...all].sort(), [...PARSE_VALIDATION_CODES].sort(), 'every code is reachable')
})

t.test('a slug outside any source is judged by the trailing path', async (t) => {
  t.same(validateFrontmatter('---\nslug: notes/idea\n---\n', { expected: { path: '/home/me/brain/notes/idea.md' } }), [])
  t.same(validateFrontmatter('---\nslug: idea\n---\n', { expected: { path: '/home/me/brain/notes/idea.md' } }), [])
  t.match(validateFrontmatter('---\nslug: other\n---\n', { expected: { path: '/home/me/brain/notes/idea.md' } }), [{ code: 'SLUG_MISMATCH', fixable: true }])
})

t.test('fixable and non-fixable codes', async (t) => {
  t.same([...FIXABLE_CODES].sort(), ['MISSING_CLOSE', 'NESTED_QUOTES', 'NULL_BYTES', 'SLUG_MISMATCH'])
  const fixes: [string, string, string][] = [
    ['NULL_BYTES', '---\ntitle: A\u0000\n---\nbody\n', '---\ntitle: A\n---\nbody\n'],
    ['MISSING_CLOSE', '---\ntitle: A\ntags: [x]\n\n# Heading\n', '---\ntitle: A\ntags: [x]\n---\n\n# Heading\n'],
    ['MISSING_CLOSE', '---\ntitle: A\nJust prose here.\n', '---\ntitle: A\n---\nJust prose here.\n'],
    ['MISSING_CLOSE', '---\ntitle: A', '---\ntitle: A\n---\n'],
    ['NESTED_QUOTES', '---\ntitle: "He said "hi""\n---\n', '---\ntitle: "He said \\"hi\\""\n---\n'],
    ['NESTED_QUOTES', "---\ntags:\n  - 'it's'\n---\n", "---\ntags:\n  - 'it''s'\n---\n"],
    ['SLUG_MISMATCH', '---\ntitle: A\nslug: wrong/place\n---\nbody\n', '---\ntitle: A\nslug: notes/a\n---\nbody\n'],
    ['SLUG_MISMATCH', '---\r\nslug: wrong\r\n---\r\n', '---\r\nslug: notes/a\r\n---\r\n'],
  ]
  for (const [code, before, after] of fixes) {
    const result = fixFrontmatter(before, { expected })
    t.same(result.fixed, [code], `${code} is fixed`)
    t.equal(result.text, after, `${code}: ${JSON.stringify(before)}`)
    t.same(result.remaining, [], `${code}: nothing left`)
  }
  for (const text of ['# no front matter\n', '---\n\n---\n', '---\na: [\n---\n']) {
    const result = fixFrontmatter(text, { expected })
    t.same(result.fixed, [], 'not auto-fixed')
    t.equal(result.text, text, 'left as it was')
    t.equal(result.remaining.length, 1)
    t.equal(result.remaining[0]!.fixable, false)
  }
  const several = fixFrontmatter('---\ntitle: "a "b""\nslug: x\u0000\n', { expected })
  t.same(several.fixed, ['NULL_BYTES', 'MISSING_CLOSE', 'NESTED_QUOTES', 'SLUG_MISMATCH'], 'several problems in one pass')
  t.same(several.remaining, [])
})

t.test('lint findings use the six rule names and leave out MISSING_OPEN', async (t) => {
  t.same(Object.values(LINT_RULES).sort(), [
    'frontmatter-empty',
    'frontmatter-missing-close',
    'frontmatter-nested-quotes',
    'frontmatter-null-bytes',
    'frontmatter-slug-mismatch',
    'frontmatter-yaml-parse',
  ])
  t.same(lintFindings(validateFrontmatter('# none\n')), [], 'no lint finding for a file without front matter')
  const cases: [string, string][] = [
    ['---\na: 1\n\nbody\n', 'frontmatter-missing-close'],
    ['---\na: [\n---\n', 'frontmatter-yaml-parse'],
    ['---\na: 1\n---\n\u0000', 'frontmatter-null-bytes'],
    ['---\na: "b"c"\n---\n', 'frontmatter-nested-quotes'],
    ['---\nslug: x\n---\n', 'frontmatter-slug-mismatch'],
    ['---\n---\n', 'frontmatter-empty'],
  ]
  for (const [text, rule] of cases)
    t.same(
      lintFindings(validateFrontmatter(text, { expected })).map((f) => f.rule),
      [rule],
    )
})
