import v8 from 'node:v8'
import t from 'tap'
import { chunkCode, displayLanguage, type ChunkDraft, type CodeLanguage } from '../../src/chunking/index.js'
import { EXPECTED, SNIPPETS } from './snippets.js'

// Parsing Swift makes V8 tier up a huge grammar function in the background, and the
// process cannot exit until that compile ends (seconds). Correctness does not depend on
// tier-up, so this test process opts out of it.
v8.setFlagsFromString('--wasm-tiering-budget=2000000000')

/** Small enough that nothing merges and classes split into members: every symbol shows. */
const TINY_BUDGET = 16

function label(c: ChunkDraft): string {
  return `${c.symbolType} ${c.symbolNameQualified ?? ''}`.trim()
}

t.test('a snippet for every language', async (t) => {
  t.same(Object.keys(SNIPPETS).sort(), Object.keys(EXPECTED).sort())
  t.equal(Object.keys(SNIPPETS).length, 29)
})

// Few assertions per language on purpose: each tap assertion records a call site, and
// hundreds of them cost more than chunking all 29 snippets.
for (const lang of Object.keys(SNIPPETS) as CodeLanguage[]) {
  t.test(`${lang}: named symbols`, async (t) => {
    const { path, content } = SNIPPETS[lang]
    const chunks = await chunkCode({ path, content, chunkSizeTokens: TINY_BUDGET })
    t.ok(
      chunks.some((c) => c.symbolName !== null),
      'chunked by syntax, not by the plain fallback',
    )
    t.same(chunks.filter((c) => c.language !== lang).map(label), [], 'every chunk carries the canonical language id')
    t.same(chunks.filter((c) => !c.text.startsWith(`[${displayLanguage(lang)}] ${path}:`)).map(label), [], 'header names language and path')
    const inconsistent = chunks.filter((c) => {
      const expected = c.symbolName === null ? null : [...(c.parentSymbolPath ?? []), c.symbolName].join('.')
      return c.symbolNameQualified !== expected
    })
    t.same(inconsistent.map(label), [], 'qualified name = parent path + name')
    const found = new Set(chunks.map(label))
    const wanted = EXPECTED[lang].map(([type, qualified]) => `${type} ${qualified}`.trim())
    t.same(
      wanted.filter((w) => !found.has(w)),
      [],
      'expected symbols are present',
      { found: [...found] },
    )
    const docs = EXPECTED[lang]
      .filter(([, , doc]) => doc !== undefined)
      .map(([type, qualified, doc]) => {
        const hit = chunks.find((c) => label(c) === `${type} ${qualified}`.trim())
        return { symbol: qualified, doc: hit?.docComment ?? null, wanted: doc }
      })
    t.same(
      docs.map((d) => d.doc),
      docs.map((d) => d.wanted),
      'doc comments',
    )
  })
}
