// test-runner: shares a process
import t from 'tap'
import { chunkMarkdown, estimateTokens, type ChunkDraft } from '../../src/chunking/index.js'
import { chunkMarkdownWith } from '../../src/chunking/markdown-chunker.js'

function words(n: number, seed: string): string {
  return Array.from({ length: n }, (_, i) => `${seed}${i}`).join(' ') + '.'
}

function fence(tag: string, body: string, marker = '```'): string {
  return `${marker}${tag}\n${body}\n${marker}`
}

function fenceChunks(chunks: ChunkDraft[]): ChunkDraft[] {
  return chunks.filter((c) => c.source === 'fenced_code')
}

/** `fence-<n>` from a fence chunk's header. */
function fenceNumber(c: ChunkDraft): number {
  const m = /^\[[^\]]+\] fence-(\d+):/.exec(c.text)
  return m === null ? -1 : Number(m[1])
}

t.test('prose: sections pack by heading, every chunk within budget, nothing lost', async (t) => {
  const budget = 100
  const sections = Array.from({ length: 6 }, (_, i) => `## Section ${i}\n\n${words(40, `s${i}w`)}\n\n${words(25, `s${i}v`)}`)
  const compiledTruth = `# Title\n\n${sections.join('\n\n')}\n`
  const chunks = await chunkMarkdown({ compiledTruth, timeline: '', chunkSizeTokens: budget })
  t.ok(chunks.length > 1)
  t.same(chunks.filter((c) => estimateTokens(c.text) > budget).length, 0, 'within budget')
  t.same(chunks.filter((c) => c.tokenCount !== estimateTokens(c.text)).length, 0, 'tokenCount is the estimate')
  t.ok(chunks.every((c) => c.source === 'compiled_truth' && c.language === null && c.symbolType === null && c.startLine === null))
  const text = chunks.map((c) => c.text).join('\n')
  const missing = compiledTruth.split(/\s+/).filter((w) => w !== '' && !text.includes(w))
  t.same(missing, [], 'every word of the page is in some chunk')
  // Sections are ~70 tokens: each fits alone, two do not, so every chunk starts at a heading.
  t.ok(
    chunks.every((c) => c.text.startsWith('#')),
    'chunks start at headings',
  )
})

t.test('prose: an oversized paragraph splits at sentences, then words', async (t) => {
  const budget = 50
  const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about things.`).join(' ')
  const unbroken = 'x'.repeat(1000)
  const chunks = await chunkMarkdown({ compiledTruth: `${sentences}\n\n${unbroken}`, timeline: '', chunkSizeTokens: budget })
  t.same(chunks.filter((c) => estimateTokens(c.text) > budget).length, 0, 'within budget')
  const prose = chunks.filter((c) => c.text.startsWith('Sentence'))
  t.ok(prose.length > 1 && prose.every((c) => c.text.endsWith('.')), 'sentence chunks end at sentence ends')
  t.equal(
    chunks
      .filter((c) => /^x+$/.test(c.text))
      .map((c) => c.text)
      .join(''),
    unbroken,
    'an unbroken run is cut by characters',
  )
})

t.test('prose: timeline chunks come after compiled truth, indexes are continuous', async (t) => {
  const chunks = await chunkMarkdown({ compiledTruth: 'Truth here.', timeline: '- 2024-01-01: happened\n- 2024-02-01: more', chunkSizeTokens: 100 })
  t.same(
    chunks.map((c) => c.source),
    ['compiled_truth', 'timeline'],
  )
  t.same(
    chunks.map((c) => c.chunkIndex),
    [0, 1],
  )
  t.same(await chunkMarkdown({ compiledTruth: '', timeline: '   \n' }), [])
})

t.test('fences: tags and aliases are recognised and chunked as code', async (t) => {
  const compiledTruth = [
    'Intro paragraph.',
    fence('ts title="a.ts"', 'export function add(a: number, b: number) {\n  return a + b\n}'),
    fence('golang', 'func Hello() string {\n\treturn "hi"\n}'),
    fence('C++', 'int twice(int x) {\n  return 2 * x;\n}'),
    fence('zsh', 'deploy() {\n  echo deploying\n}', '~~~'),
    fence('yml', 'server:\n  port: 8080'),
    '  ' + fence('python', 'def indented():\n      return 1').replace(/\n/g, '\n  '),
  ].join('\n\n')
  const chunks = await chunkMarkdown({ compiledTruth, timeline: fence('rb', 'def later\n  1\nend') })
  const fences = fenceChunks(chunks)
  const byFence = new Map(fences.map((c) => [fenceNumber(c), c]))
  t.same([...byFence.keys()], [1, 2, 3, 4, 5, 6, 7], 'one chunk per small fence, numbered in page order')
  t.same(
    [...byFence.values()].map((c) => c.language),
    ['typescript', 'go', 'cpp', 'bash', 'yaml', 'python', 'ruby'],
  )
  t.match(byFence.get(1)!.text, /^\[TypeScript\] fence-1:1-3 add\n/, 'code header with fence path and fence-relative lines')
  t.same(
    [...byFence.values()].map((c) => c.symbolName),
    ['add', 'Hello', 'twice', 'deploy', 'server', 'indented', 'later'],
  )
  t.equal(byFence.get(6)!.text.split('\n')[1], 'def indented():', 'the fence indentation is removed')
  t.ok(
    fences.every((c) => c.startLine !== null && c.symbolType !== null),
    'fence chunks carry code metadata',
  )
  const firstFence = chunks.findIndex((c) => c.source === 'fenced_code')
  t.ok(chunks.slice(0, firstFence).every((c) => c.source !== 'fenced_code') && chunks.slice(firstFence).every((c) => c.source === 'fenced_code'), 'prose first, then fences')
  t.same(
    chunks.map((c) => c.chunkIndex),
    chunks.map((_, i) => i),
    'continuous chunkIndex',
  )
})

t.test('fences: unknown tag, no tag and empty body are skipped', async (t) => {
  const compiledTruth = [fence('mermaid', 'graph TD; A-->B'), fence('', 'plain text block'), fence('ts', '   \n'), fence('ts', 'const kept = 1')].join('\n\n')
  const chunks = await chunkMarkdown({ compiledTruth, timeline: '' })
  t.same(fenceChunks(chunks).map(fenceNumber), [4], 'only the fourth fence is chunked')
})

t.test("an Excalidraw drawing's compressed data is not chunked; its text elements are", async (t) => {
  const blob = Array.from({ length: 400 }, (_, i) => `N4KAkARALgngDg${i}UBcYAEMAzBCcQGsAGJA+${'x'.repeat(200)}`).join('\n\n')
  const compiledTruth = [
    '==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==',
    '',
    '# Text Elements',
    'Harbour mooring plan ^a1b2c3',
    '',
    '%%',
    '# Drawing',
    fence('compressed-json', blob),
    '%%',
    '',
    fence('json', '{"kept": true}'),
  ].join('\n')
  const chunks = await chunkMarkdown({ compiledTruth, timeline: '' })
  const text = chunks.map((c) => c.text).join('\n')
  t.match(text, /Harbour mooring plan/)
  t.notMatch(text, /N4KAkARALgngDg|compressed-json/, 'no chunk holds the drawing data or its fence')
  t.ok(chunks.length <= 3, `a few chunks, not hundreds (${chunks.length})`)
  t.match(text, /"kept": true/, 'other fences stay')
  const unclosed = await chunkMarkdown({ compiledTruth: `Before\n\n\`\`\`compressed-json\n${blob}`, timeline: '' })
  t.same(
    unclosed.map((c) => c.text),
    ['Before'],
    'an unclosed data fence runs to the end of the text',
  )
})

t.test('fences: at most maxFences are processed', async (t) => {
  const compiledTruth = Array.from({ length: 8 }, (_, i) => fence('js', `function f${i}() { return ${i} }`)).join('\n\n')
  const capped = await chunkMarkdown({ compiledTruth, timeline: '', maxFences: 3 })
  t.same(
    fenceChunks(capped).map((c) => c.symbolName),
    ['f0', 'f1', 'f2'],
  )
  const byDefault = await chunkMarkdown({ compiledTruth, timeline: '' })
  t.equal(fenceChunks(byDefault).length, 8)
  const many = Array.from({ length: 120 }, (_, i) => fence('py', `x${i} = ${i}`)).join('\n\n')
  const limited = await chunkMarkdown({ compiledTruth: many, timeline: '' })
  t.equal(fenceChunks(limited).length, 100, 'the default cap is 100 fences')
})

t.test('fences: a fence whose chunking throws does not abort the page', async (t) => {
  const compiledTruth = ['Prose.', fence('ts', 'const a = 1'), fence('ts', 'const b = 2'), fence('ts', 'const c = 3')].join('\n\n')
  const failures: Array<{ err: unknown; index: number }> = []
  const chunks = await chunkMarkdownWith({ compiledTruth, timeline: '', onFenceError: (err, index) => failures.push({ err, index }) }, async (input) => {
    if (input.content.includes('b = 2')) throw new Error('grammar exploded')
    const { chunkCode } = await import('../../src/chunking/index.js')
    return chunkCode(input)
  })
  t.same(fenceChunks(chunks).map(fenceNumber), [1, 3])
  t.same(
    failures.map((f) => [f.index, (f.err as Error).message]),
    [[1, 'grammar exploded']],
  )
  t.equal(chunks[0]!.source, 'compiled_truth', 'the prose is still there')
})

t.test('markdown chunking is deterministic', async (t) => {
  const input = {
    compiledTruth: `# A\n\n${words(300, 'a')}\n\n${fence('ts', 'export const x = () => 1')}\n\n## B\n\n${words(200, 'b')}`,
    timeline: words(50, 't'),
    chunkSizeTokens: 80,
  }
  t.same(await chunkMarkdown(input), await chunkMarkdown(input))
})

t.test('a long run of backticks before a carriage return costs its length', async (t) => {
  // Not a fence (a fence line holds no line break); reading it cost the square of the run.
  const chunks = await chunkMarkdown({ compiledTruth: `${'`'.repeat(1_000_000)}\rx\n\n${fence('js', 'const after = 1')}`, timeline: '' })
  t.same(
    fenceChunks(chunks).map((c) => c.text.includes('const after = 1')),
    [true],
  )
})
