// test-runner: shares a process
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import t from 'tap'
import { capToTokenLimit, countTokens, EMBEDDING_INPUT_TOKEN_CAP } from '../../src/embedding/index.js'
import { loadCl100kEncoder, memoizedPieces, TokenCounter, type TokenEncoder } from '../../src/embedding/providers/tokenizer.js'
import { packageRoot } from '../../src/util/package-root.js'

t.test('countTokens uses cl100k_base', async (t) => {
  // Reference counts from OpenAI's tiktoken for cl100k_base.
  t.equal(countTokens('hello world'), 2)
  t.equal(countTokens(''), 0)
  t.equal(countTokens('tiktoken is great!'), 6)
  t.ok(countTokens('hello '.repeat(100)) >= 100)
})

t.test('special-token text is counted as ordinary text instead of throwing', async (t) => {
  const n = countTokens('before <|endoftext|> after')
  t.ok(n > 3, `counted ${n} tokens`)
})

t.test('capToTokenLimit keeps short text and cuts long text to a prefix within the limit', async (t) => {
  t.equal(capToTokenLimit('short text'), 'short text')
  const long = 'The quick brown fox jumps over the lazy dog. '.repeat(2000)
  t.ok(countTokens(long) > EMBEDDING_INPUT_TOKEN_CAP)
  const capped = capToTokenLimit(long)
  t.ok(long.startsWith(capped))
  t.ok(countTokens(capped) <= EMBEDDING_INPUT_TOKEN_CAP)
  t.ok(countTokens(capped) > EMBEDDING_INPUT_TOKEN_CAP - 10, 'keeps as much as fits')

  const ten = capToTokenLimit(long, 10)
  t.equal(countTokens(ten), 10)
  t.ok(long.startsWith(ten))
  t.equal(capToTokenLimit(long, 0), '')
})

t.test('a cut never leaves half a multi-byte character behind', async (t) => {
  const emoji = '😀'.repeat(50) // two tokens per emoji in cl100k
  for (const limit of [1, 2, 3, 7, 8]) {
    const capped = capToTokenLimit(emoji, limit)
    t.ok(emoji.startsWith(capped), `limit ${limit}: prefix`)
    t.notMatch(capped, /\uFFFD/, `limit ${limit}: no replacement character`)
    t.ok(countTokens(capped) <= limit, `limit ${limit}: within the limit`)
  }
  t.ok(capToTokenLimit(emoji, 8).length > 0, 'whole characters that fit are kept')
})

t.test('without a tokenizer, counts fall back to length/4', async (t) => {
  let loads = 0
  const counter = new TokenCounter(() => {
    loads += 1
    throw new Error('cannot load ranks')
  })
  t.equal(counter.count('abcdefghi'), 3)
  t.equal(counter.count(''), 0)
  t.equal(counter.usingFallback, true)
  t.equal(counter.cap('a'.repeat(100), 10), 'a'.repeat(40))
  t.equal(counter.cap('a' + '😀'.repeat(20), 5), 'a' + '😀'.repeat(9), 'never splits a surrogate pair')
  t.equal(loads, 1, 'a failed load is not retried on every call')
})

t.test('the encoder loads once, on first use', async (t) => {
  let loads = 0
  const encoder: TokenEncoder = {
    encode: (text) => Array.from(text, (c) => c.charCodeAt(0)),
    decode: (tokens) => String.fromCharCode(...tokens),
  }
  const counter = new TokenCounter(() => {
    loads += 1
    return encoder
  })
  t.equal(loads, 0, 'constructing does not load')
  t.equal(counter.count('abc'), 3)
  t.equal(counter.cap('abcdef', 4), 'abcd')
  t.equal(loads, 1)
})

t.test('the piece memo gives the library encoder’s own tokens', async (t) => {
  const require = createRequire(import.meta.url)
  const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite')
  const ranks = require('js-tiktoken/ranks/cl100k_base') as import('js-tiktoken/lite').TiktokenBPE
  const plain = new Tiktoken(ranks)
  const memoized = loadCl100kEncoder()
  const texts = [
    // The library merges a long run of one character in quadratic time, so the README is read
    // without its longest table rules; one such run is kept below.
    readFileSync(join(packageRoot(), 'README.md'), 'utf8').replace(/([- ])\1{39,}/g, '$1$1$1$1'),
    `| a | b |\n|${'-'.repeat(300)}|\n`,
    readFileSync(join(packageRoot(), 'CHANGELOG.md'), 'utf8'),
    "  leading spaces,\ttabs\t\t and trailing   \n\n\r\n  \nit's 12345 O'Neil'S <|endoftext|> 😀😀 naïve café 東京 ٣٤٥ ",
    '[1] notes/probe (line 12, 2025-04-02)\n    indented code();\n',
    // Long runs with no whole-piece token make the pair merges go many rounds deep.
    'Pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism zzzzzzzzzzzzqqqqqxxxx ',
    Array.from({ length: 400 }, (_, i) => String.fromCodePoint(0x20 + ((i * 7919) % 0x2fff))).join(''),
  ]
  for (const text of texts) {
    t.same(memoized.encode(text), plain.encode(text, [], []), `${text.slice(0, 20)}…`)
    t.same(memoized.encode(text), plain.encode(text, [], []), 'again, from the memo')
    const tokens = plain.encode(text, [], [])
    t.equal(memoized.decode(tokens), plain.decode(tokens), 'decodes as the library does')
    t.equal(memoized.decode(tokens.slice(0, 7)), plain.decode(tokens.slice(0, 7)), 'a cut decodes as the library does')
  }
})

t.test('each distinct piece is byte-pair encoded once', async (t) => {
  const seen: string[] = []
  const encode = memoizedPieces(/\S+|\s+/gu, (piece) => {
    seen.push(piece)
    return [piece.length]
  })
  t.same(encode('to be or not to be'), [2, 1, 2, 1, 2, 1, 3, 1, 2, 1, 2])
  t.same(seen, ['to', ' ', 'be', 'or', 'not'])
})
