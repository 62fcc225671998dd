// test-runner: shares a process
import t from 'tap'
import { FRONTMATTER_LIMITS, parseFrontmatter, stringifyFrontmatter } from '../../src/util/frontmatter-doc.js'
import { parseMarkdownPage, serializePage } from '../../src/pages/index.js'
import { noteLinks } from '../../src/links/index.js'
import { parseYaml } from '../../src/frontmatter/yaml.js'
import { aliasBomb } from './fixtures.js'

function code(fn: () => unknown): string | undefined {
  try {
    fn()
    return undefined
  } catch (err) {
    return (err as { code?: string }).code
  }
}

t.test('an alias bomb is refused quickly with a front-matter code', async (t) => {
  const bomb = aliasBomb()
  t.ok(bomb.length < 450, `the bomb is ${bomb.length} bytes`)
  const started = Date.now()
  t.equal(
    code(() => parseMarkdownPage(bomb, 'notes/bomb')),
    'frontmatter_too_complex',
  )
  t.equal(
    code(() => parseFrontmatter(bomb)),
    'frontmatter_too_complex',
  )
  t.ok(Date.now() - started < 5000, 'refused without expanding')
  const validated = parseYaml(bomb.split('\n').slice(1, 10))
  t.equal(validated.ok, false, 'frontmatter validate reports it too')
})

t.test('aliases that stay small are still read', async (t) => {
  const page = parseMarkdownPage('---\nbase: &b {x: 1}\nuse: *b\nlist: [*b, *b]\n---\nbody\n', 'a')
  t.same(page.frontmatter.use, { x: 1 })
  t.same(page.frontmatter.list, [{ x: 1 }, { x: 1 }])
})

t.test('depth and size are bounded', async (t) => {
  const deep = `---\nv: ${'['.repeat(FRONTMATTER_LIMITS.maxDepth + 5)}${']'.repeat(FRONTMATTER_LIMITS.maxDepth + 5)}\n---\n`
  t.equal(
    code(() => parseFrontmatter(deep)),
    'frontmatter_too_complex',
  )
  const big = `---\nv: "${'x'.repeat(FRONTMATTER_LIMITS.maxBytes)}"\n---\n`
  t.equal(
    code(() => parseFrontmatter(big)),
    'frontmatter_too_large',
  )
})

t.test('values keep the text they were written as', async (t) => {
  const page = parseMarkdownPage('---\ntitle: 2024-03-14\nwhen: 2024-03-14\n---\nbody\n', 'a')
  t.equal(page.title, '2024-03-14', 'a date-like title is text')
  t.equal(page.frontmatter.when, '2024-03-14')
  t.equal(parseMarkdownPage('---\ntitle: 1984\n---\nbody\n', 'a').title, '1984')
})

t.test('executable front matter never runs, on reading or on writing', async (t) => {
  const marker = globalThis as { BRAIN_FM_RAN?: number }
  t.equal(
    code(() => parseFrontmatter('---js\n{ a: (globalThis.BRAIN_FM_RAN = 1) }\n---\nbody\n')),
    'frontmatter_language_refused',
  )
  const page = parseMarkdownPage('---\ntitle: t\n---\n---js\n{ a: (globalThis.BRAIN_FM_RAN = 2) }\n---\nbody\n', 'a')
  const written = serializePage({ ...page, pageKind: 'markdown' })
  t.match(written, /---js/, 'the body keeps its text')
  t.equal(marker.BRAIN_FM_RAN, undefined, 'nothing was evaluated')
  t.equal(stringifyFrontmatter('body', {}), 'body\n', 'no block for no data')
})

t.test('headings, property lines, Org headers and links built to make a parser backtrack are read in one pass', async (t) => {
  const n = 1_000_000
  const hostile: Array<[string, string, string]> = [
    ['spaces inside a property value', `a:: x${' '.repeat(n)}y\n`, 'notes/a.md'],
    ['unclosed [[ in a list property', `tags:: ${'[['.repeat(n / 2)}\n`, 'notes/b.md'],
    ['unclosed [[a in aliases', `alias:: ${'[[a'.repeat(n / 3)}\n`, 'notes/c.md'],
    ['Org aliases of open quotes', `:PROPERTIES:\n:ROAM_ALIASES: ${'"a '.repeat(n / 3)}\n:END:\n`, 'notes/d.org'],
    ['Org links never closed', `x [[${'a]['.repeat(n / 3)}\n`, 'notes/e.org'],
    ['reference definitions of spaces', `[a]: b${' '.repeat(n)}c\n`, 'notes/f.md'],
    ['a heading of closing hashes that never closes', `# ${' #'.repeat(n / 2)}x\n`, 'notes/g.md'],
  ]
  for (const [what, text, path] of hostile) {
    const started = Date.now()
    const slug = path.replace(/\.md$/, '')
    const page = parseMarkdownPage(text, slug, path)
    noteLinks(text, page.frontmatter, slug)
    t.ok(Date.now() - started < 10_000, `${what}: ${Date.now() - started} ms`)
  }
  const long = `tags:: ${'a, '.repeat(30_000)}\n- text\n`
  t.same(parseMarkdownPage(long, 'notes/long', 'notes/long.md').frontmatter, {}, 'a property block longer than front matter may be stays text')
  t.equal(parseMarkdownPage(long, 'notes/long', 'notes/long.md').compiledTruth, long.trim())
  t.equal((parseMarkdownPage(`tags:: ${'a, '.repeat(20_000)}\n`, 'notes/many', 'notes/many.md').frontmatter.tags as string[]).length, 20_000)
})
