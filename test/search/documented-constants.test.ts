// test-runner: shares a process
import t from 'tap'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { HYBRID_KEYWORD_WEIGHT } from '../../src/search/hybrid.js'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from '../../src/search/options.js'
import { queryTool, searchTool } from '../../src/operations/search.js'
import { FRONTMATTER_LIMITS } from '../../src/util/frontmatter-doc.js'

const read = (path: string): string => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8')

t.test('the fusion weights the docs state are the ones the code uses', async (t) => {
  const keyword = String(HYBRID_KEYWORD_WEIGHT)
  const vector = String(Math.round((1 - HYBRID_KEYWORD_WEIGHT) * 10) / 10)
  for (const [name, text] of [
    ['README.md', read('README.md')],
    ['src/search/README.md', read('src/search/README.md')],
    ['brain query --help', queryTool.cli?.details ?? ''],
  ] as const) {
    t.ok(text.includes(`${keyword} ×`) || text.includes(`${keyword} ·`), `${name} gives the keyword weight ${keyword}`)
    t.ok(text.includes(`${vector} ×`) || text.includes(`${vector} ·`), `${name} gives the vector weight ${vector}`)
    t.notMatch(text, /three quarters|normalized RRF/, `${name} describes no fusion the code does not use`)
  }
})

t.test('the limits the help and the schema state are the search limits', async (t) => {
  const limit = searchTool.cli?.options.find((o) => o.field === 'limit')?.description ?? ''
  t.match(limit, new RegExp(`1–${MAX_LIMIT} \\(default ${DEFAULT_LIMIT}\\)`))
  const offset = searchTool.cli?.options.find((o) => o.field === 'offset')?.description ?? ''
  t.match(offset, new RegExp(`0–${MAX_OFFSET}`))
  t.equal(searchTool.input.safeParse({ query: 'x', limit: MAX_LIMIT }).success, true)
  t.equal(searchTool.input.safeParse({ query: 'x', limit: MAX_LIMIT + 1 }).success, false, 'the tool refuses what the search refuses')
  t.match(read('README.md'), new RegExp(`blocks over ${FRONTMATTER_LIMITS.maxBytes / 1024} KiB`), 'the README states the front-matter bound')
  t.match(read('README.md'), new RegExp(`deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`))
})
