// test-runner: shares a process
import t, { type Test } from 'tap'
import { chunkCode, DEFAULT_CHUNK_SIZE_TOKENS, estimateTokens, type ChunkDraft } from '../../src/chunking/index.js'

const HEADER = /^\[([^\]]+)\] (\S+):(\d+)-(\d+) (.+)$/

/** The code under a chunk's header line. */
function body(chunk: ChunkDraft): string {
  return chunk.text.slice(chunk.text.indexOf('\n') + 1)
}

function symbolLabel(c: ChunkDraft): string {
  if (c.symbolType === 'merged') return c.symbolName === null ? 'merged' : 'named merged chunk'
  return c.symbolNameQualified ?? c.symbolType ?? ''
}

/** Checks the structural invariants every code chunking must satisfy. */
function checkInvariants(t: Test, chunks: ChunkDraft[], content: string, budget: number): void {
  const lines = content.split('\n')
  const covered = new Set<number>()
  let previousEnd = 0
  const problems: string[] = []
  chunks.forEach((c, i) => {
    const header = HEADER.exec(c.text.split('\n', 1)[0] ?? '')
    if (c.chunkIndex !== i) problems.push(`chunk ${i}: chunkIndex ${c.chunkIndex}`)
    if (c.source !== 'code') problems.push(`chunk ${i}: source ${c.source}`)
    if (c.tokenCount !== estimateTokens(c.text)) problems.push(`chunk ${i}: tokenCount`)
    if (header === null || c.startLine === null || c.endLine === null) {
      problems.push(`chunk ${i}: header or lines missing`)
      return
    }
    if (Number(header[3]) !== c.startLine || Number(header[4]) !== c.endLine) problems.push(`chunk ${i}: header lines`)
    const merged = /^merged \((\d+) siblings\)$/.exec(header[5]!)
    if (merged === null && header[5] !== symbolLabel(c)) problems.push(`chunk ${i}: header symbol ${header[5]}`)
    if (merged !== null && c.symbolType !== 'merged') problems.push(`chunk ${i}: merged header on ${c.symbolType}`)
    if (c.startLine < previousEnd || (c.startLine === previousEnd && c.startLine !== c.endLine)) problems.push(`chunk ${i}: overlaps`)
    previousEnd = c.endLine
    const source = lines.slice(c.startLine - 1, c.endLine).join('\n')
    if (c.startLine === c.endLine ? !source.includes(body(c)) : body(c) !== source) problems.push(`chunk ${i}: body is not lines ${c.startLine}-${c.endLine}`)
    if (estimateTokens(body(c)) > budget) problems.push(`chunk ${i}: ${estimateTokens(body(c))} tokens over budget ${budget}`)
    for (let l = c.startLine; l <= c.endLine; l++) covered.add(l)
  })
  lines.forEach((line, i) => {
    if (line.trim() !== '' && !covered.has(i + 1)) problems.push(`line ${i + 1} is in no chunk`)
  })
  t.same(problems, [], 'chunk invariants hold')
}

/** A TypeScript function whose text is exactly `tokens` estimated tokens. */
function fnOfTokens(name: string, tokens: number): string {
  const bare = `function ${name}() {}`
  const pad = tokens * 4 - bare.length
  if (pad < 0) throw new Error('name too long for the size')
  return `function ${name}() {${' '.repeat(pad)}}`
}

function bigFunction(name: string, statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += compute(${i}, 'value number ${i}')`).join('\n')
  return `function ${name}(): number {\n  let total = 0\n${body}\n  return total\n}`
}

t.test('default budget is the documented one', async (t) => {
  t.equal(DEFAULT_CHUNK_SIZE_TOKENS, 400)
})

t.test('headers, line numbers, coverage on a real-shaped file', async (t) => {
  const content = [
    "import { readFile } from 'node:fs/promises'",
    '',
    '/** Reads a config file. */',
    bigFunction('readConfig', 30),
    '',
    'export class Store {',
    '  private items = new Map<string, number>()',
    '',
    ...Array.from({ length: 12 }, (_, i) => `  /** Method ${i}. */\n  method${i}(key: string): number {\n    return this.items.get(key) ?? ${i}\n  }\n`),
    '}',
    '',
    "console.log('done')",
    '',
  ].join('\n')
  for (const budget of [40, 100, 400]) {
    const chunks = await chunkCode({ path: 'src/store.ts', content, chunkSizeTokens: budget })
    checkInvariants(t, chunks, content, budget)
    t.ok(
      chunks.every((c) => c.text.startsWith('[TypeScript] src/store.ts:')),
      `budget ${budget}: TypeScript headers`,
    )
  }
  const small = await chunkCode({ path: 'src/store.ts', content, chunkSizeTokens: 100 })
  const readConfig = small.filter((c) => c.symbolName === 'readConfig')
  t.ok(readConfig.length >= 2, 'the oversized function is split into pieces')
  t.ok(
    readConfig.every((c) => c.symbolType === 'function' && c.docComment === 'Reads a config file.'),
    'pieces keep the symbol metadata',
  )
  t.equal(readConfig[0]!.startLine, 3, 'the first piece starts at the doc comment')
  const store = small.find((c) => c.symbolName === 'Store')
  t.equal(store?.symbolType, 'class', 'the class head is a chunk of the class')
  const method = small.find((c) => c.symbolNameQualified === 'Store.method3')
  t.ok(method !== undefined || small.some((c) => c.symbolType === 'merged'), 'methods are chunked inside the class')
})

t.test('small siblings merge; a node just above 15% does not', async (t) => {
  const budget = 100
  // 15% of 100 tokens is 15: 14 is small, 16 is not.
  const content = [fnOfTokens('a', 6), fnOfTokens('b', 14), '', fnOfTokens('big', 16), '', fnOfTokens('c', 5), fnOfTokens('d', 7)].join('\n')
  const chunks = await chunkCode({ path: 'src/m.ts', content, chunkSizeTokens: budget })
  checkInvariants(t, chunks, content, budget)
  t.same(
    chunks.map((c) => [c.symbolType, c.symbolName]),
    [
      ['merged', null],
      ['function', 'big'],
      ['merged', null],
    ],
  )
  t.match(chunks[0]!.text.split('\n')[0], / merged \(2 siblings\)$/)
  t.equal(chunks[0]!.symbolNameQualified, null)
  t.equal(chunks[0]!.parentSymbolPath, null)
  t.same([chunks[0]!.startLine, chunks[0]!.endLine, chunks[2]!.startLine, chunks[2]!.endLine], [1, 2, 6, 7])
})

t.test('merging stops at the budget', async (t) => {
  const budget = 100
  const content = Array.from({ length: 40 }, (_, i) => fnOfTokens(`f${i}`, 10)).join('\n')
  const chunks = await chunkCode({ path: 'src/many.ts', content, chunkSizeTokens: budget })
  checkInvariants(t, chunks, content, budget)
  t.ok(chunks.length > 1, 'more than one merged chunk')
  let total = 0
  for (const c of chunks) {
    const k = /merged \((\d+) siblings\)/.exec(c.text.split('\n', 1)[0]!)
    total += k === null ? 1 : Number(k[1])
  }
  t.equal(total, 40, 'every function is in exactly one chunk')
})

t.test('an oversized class splits into its methods', async (t) => {
  const methods = Array.from({ length: 6 }, (_, i) => `    def m${i}(self, value):\n        """Method ${i}."""\n        return value * ${i} + self.base\n`)
  const content = `class Calculator:\n    """Does sums."""\n\n    base = 10\n\n${methods.join('\n')}`
  const chunks = await chunkCode({ path: 'calc.py', content, chunkSizeTokens: 40 })
  checkInvariants(t, chunks, content, 40)
  const head = chunks[0]!
  t.same([head.symbolName, head.symbolType, head.docComment], ['Calculator', 'class', 'Does sums.'])
  const m4 = chunks.find((c) => c.symbolNameQualified === 'Calculator.m4')
  t.same([m4?.symbolType, m4?.parentSymbolPath, m4?.docComment], ['method', ['Calculator'], 'Method 4.'])
})

t.test('a line longer than the budget is cut into fragments', async (t) => {
  const line = `const data = [${Array.from({ length: 2000 }, (_, i) => i).join(',')}]`
  const chunks = await chunkCode({ path: 'dist/min.js', content: line, chunkSizeTokens: 50 })
  t.ok(chunks.length > 1)
  t.equal(chunks.map(body).join(''), line, 'fragments concatenate back to the line')
  t.ok(chunks.every((c) => c.startLine === 1 && c.endLine === 1 && estimateTokens(body(c)) <= 50))
})

t.test('doc comments', async (t) => {
  const cases: Array<{ path: string; content: string; symbol: string; doc: string | null }> = [
    { path: 'a.ts', content: '/**\n * Adds two numbers.\n * @param a first\n */\nexport function add(a: number) { return a }\n', symbol: 'add', doc: 'Adds two numbers.\n@param a first' },
    { path: 'a.ts', content: '// Plain line comments\n// count too.\nfunction f() {}\n', symbol: 'f', doc: 'Plain line comments\ncount too.' },
    { path: 'a.ts', content: '/** Detached. */\n\nfunction g() {}\n', symbol: 'g', doc: null },
    { path: 'a.ts', content: 'const x = 1 // about x\nfunction h() {}\n', symbol: 'h', doc: null },
    { path: 'a.py', content: 'def f():\n    """Summary.\n\n    Details here.\n    """\n    return 1\n', symbol: 'f', doc: 'Summary.\n\nDetails here.' },
    { path: 'a.py', content: '# Hash comment\n# block.\ndef g():\n    return 1\n', symbol: 'g', doc: 'Hash comment\nblock.' },
    { path: 'a.rs', content: '/// Rust doc\n/// lines.\n#[inline]\npub fn r() {}\n', symbol: 'r', doc: 'Rust doc\nlines.' },
    { path: 'a.rb', content: '# Ruby doc.\ndef rb\n  1\nend\n', symbol: 'rb', doc: 'Ruby doc.' },
    { path: 'a.go', content: 'package a\n\n// G does things.\nfunc G() {}\n', symbol: 'G', doc: 'G does things.' },
  ]
  for (const c of cases) {
    const chunks = await chunkCode({ path: c.path, content: c.content, chunkSizeTokens: 16 })
    const hit = chunks.find((ch) => ch.symbolName === c.symbol)
    t.equal(hit?.docComment, c.doc, `${c.path} ${c.symbol}`)
  }
})

t.test('unknown language falls back to recursive chunking', async (t) => {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} says something about the topic at hand.\nIt has a second line.`)
  const content = paragraphs.join('\n\n')
  const chunks = await chunkCode({ path: 'notes/log.xyz', content, chunkSizeTokens: 60 })
  checkInvariants(t, chunks, content, 60)
  t.ok(chunks.length > 1)
  t.ok(chunks.every((c) => c.symbolType === 'module' && c.symbolName === null && c.language === null))
  t.ok(chunks.every((c) => c.text.startsWith('[Text] notes/log.xyz:')))
  // Paragraphs are packed whole: no chunk starts mid-paragraph.
  t.ok(chunks.every((c) => content.split('\n')[c.startLine! - 1]!.startsWith('Paragraph')))
})

t.test('language: null forces the fallback for a known extension', async (t) => {
  const chunks = await chunkCode({ path: 'a.ts', content: 'function f() {}\n', language: null })
  t.same(
    chunks.map((c) => [c.symbolType, c.symbolName, c.language]),
    [['module', null, null]],
  )
})

t.test('a file that does not parse falls back, keeping its language', async (t) => {
  const garbage = Array.from({ length: 12 }, (_, i) => `)))) ((( ]]] {{{ ${i} ]]] )))`).join('\n')
  const broken = `def ok():\n    return 1\n\n${garbage}\n`
  const chunks = await chunkCode({ path: 'broken.py', content: broken, chunkSizeTokens: 16 })
  checkInvariants(t, chunks, broken, 16)
  t.ok(chunks.every((c) => c.symbolType === 'module' && c.symbolName === null && c.language === 'python'))
  // A small error inside an otherwise valid file is tolerated.
  const mostlyFine = `def ok():\n    return 1\n\n)))) (((\n\ndef fine():\n    return 2\n`
  const fine = await chunkCode({ path: 'fine.py', content: mostlyFine, chunkSizeTokens: 16 })
  t.same(
    fine.filter((c) => c.symbolName !== null).map((c) => c.symbolName),
    ['ok', 'fine'],
  )
})

t.test('deterministic, also under concurrency', async (t) => {
  const content = bigFunction('det', 80) + '\n\n' + Array.from({ length: 10 }, (_, i) => fnOfTokens(`s${i}`, 8)).join('\n')
  const first = await chunkCode({ path: 'src/det.ts', content, chunkSizeTokens: 120 })
  const again = await Promise.all(Array.from({ length: 4 }, () => chunkCode({ path: 'src/det.ts', content, chunkSizeTokens: 120 })))
  for (const run of again) t.same(run, first)
})

t.test('empty input, CRLF and BOM', async (t) => {
  t.same(await chunkCode({ path: 'a.ts', content: '' }), [])
  t.same(await chunkCode({ path: 'a.ts', content: '  \n\n' }), [])
  const lf = 'function a() {\n  return 1\n}\n\nfunction b() {\n  return 2\n}\n'
  const crlf = '\uFEFF' + lf.replace(/\n/g, '\r\n')
  const fromLf = await chunkCode({ path: 'a.ts', content: lf, chunkSizeTokens: 16 })
  const fromCrlf = await chunkCode({ path: 'a.ts', content: crlf, chunkSizeTokens: 16 })
  t.same(fromCrlf, fromLf, 'CRLF and a BOM chunk exactly like LF')
})
