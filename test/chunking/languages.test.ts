import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { CHUNKER_VERSION, CODE_EXTENSIONS, displayLanguage, estimateTokens, isCodePath, languageForFenceTag, languageForPath, type CodeLanguage } from '../../src/chunking/index.js'

const SPEC_EXTENSIONS = (
  '.rs .java .cs .cpp .cc .cxx .hpp .hxx .hh .c .h .php .swift .kt .kts .scala .sc .lua .ex .exs .elm .ml .mli ' +
  '.dart .zig .sol .sh .bash .css .html .htm .vue .json .yaml .yml .toml .mts .cts .ts .tsx .js .jsx .mjs .cjs .py .rb .go'
).split(' ')

const SPEC_FENCE_TAGS = (
  'ts typescript tsx js javascript jsx py python rb ruby go golang rs rust java c# cs csharp cpp c++ c php swift kt ' +
  'kotlin scala lua ex elixir elm ml ocaml dart zig sol solidity sh bash shell zsh css html vue json yaml yml toml'
).split(' ')

t.test('chunker version', async (t) => {
  t.equal(CHUNKER_VERSION, 4)
})

t.test('every spec extension is a code extension and maps to a language', async (t) => {
  t.same(
    SPEC_EXTENSIONS.filter((ext) => !CODE_EXTENSIONS.includes(ext)),
    [],
  )
  t.same(
    SPEC_EXTENSIONS.filter((ext) => languageForPath(`dir/file${ext}`) === null),
    [],
  )
  t.same(
    CODE_EXTENSIONS.filter((ext) => !isCodePath(`a/b/c${ext}`)),
    [],
  )
  const languages = new Set(SPEC_EXTENSIONS.map((ext) => languageForPath(`x${ext}`)))
  t.equal(languages.size, 29, 'the extensions cover all 29 languages')
})

t.test('path detection', async (t) => {
  const cases: Array<[string, CodeLanguage | null]> = [
    ['src/a.mts', 'typescript'],
    ['src/A.TSX', 'tsx'],
    ['lib/x.cjs', 'javascript'],
    ['inc/x.h', 'c'],
    ['inc/x.hpp', 'cpp'],
    ['lib/x.mli', 'ocaml'],
    ['Gemfile', 'ruby'],
    ['web/index.htm', 'html'],
    ['docs/README.md', null],
    ['Makefile', null],
    ['notes.txt', null],
    ['archive.tar.gz', null],
    ['.env', null],
  ]
  t.same(
    cases.map(([path]) => languageForPath(path)),
    cases.map(([, lang]) => lang),
  )
  t.equal(isCodePath('docs/guide.md'), false)
})

t.test('fence tags', async (t) => {
  t.same(
    SPEC_FENCE_TAGS.filter((tag) => languageForFenceTag(tag) === null),
    [],
    'every spec tag is recognised',
  )
  const cases: Array<[string, CodeLanguage | null]> = [
    ['golang', 'go'],
    ['c++', 'cpp'],
    ['C#', 'csharp'],
    ['zsh', 'bash'],
    ['yml', 'yaml'],
    ['TS', 'typescript'],
    ['ts title="x.ts"', 'typescript'],
    ['{.python}', 'python'],
    ['py:src/app.py', 'python'],
    ['jsx', 'javascript'],
    ['mermaid', null],
    ['text', null],
    ['', null],
    ['diff', null],
  ]
  t.same(
    cases.map(([tag]) => languageForFenceTag(tag)),
    cases.map(([, lang]) => lang),
  )
})

t.test('display names', async (t) => {
  t.same((['typescript', 'csharp', 'cpp', 'ocaml', 'javascript', 'yaml'] as CodeLanguage[]).map(displayLanguage), ['TypeScript', 'C#', 'C++', 'OCaml', 'JavaScript', 'YAML'])
})

t.test('token estimate is length / 4 rounded up', async (t) => {
  t.same(['', 'a', 'abcd', 'abcde', 'x'.repeat(401)].map(estimateTokens), [0, 1, 1, 2, 101])
})

t.test('importing the module does not load tree-sitter', async (t) => {
  const index = fileURLToPath(new URL('../../src/chunking/index.js', import.meta.url))
  // A resolve hook that refuses web-tree-sitter: importing and path lookups must still work,
  // while chunking code (the control) must hit the refusal.
  const hook = 'data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, n) { if (s === "web-tree-sitter") throw new Error("tree-sitter loaded"); return n(s, c) }')
  const script = `
    import { register } from 'node:module'
    register(${JSON.stringify(hook)})
    const m = await import(${JSON.stringify(index)})
    const lookups = [m.languageForPath('a.ts'), m.isCodePath('b.py')]
    const md = await m.chunkMarkdown({ compiledTruth: 'Just prose.', timeline: '' })
    let control = 'not refused'
    try { await m.chunkCode({ path: 'a.ts', content: 'const a = 1' }) } catch (err) { control = err.message }
    console.log(JSON.stringify({ lookups, prose: md.length, control }))
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  t.same(JSON.parse(out), { lookups: ['typescript', true], prose: 1, control: 'tree-sitter loaded' })
})
