import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ProviderError } from '../../src/errors/index.js'
import { capToTokenLimit, countTokens, createEmbeddingProvider, EMBEDDING_DIMENSIONS, EMBEDDING_INPUT_TOKEN_CAP } from '../../src/embedding/index.js'
import type { EmbeddingSettings } from '../../src/embedding/index.js'
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fake-openai-server.js'

let fake: FakeOpenAIServer

t.before(async () => {
  fake = await startFakeOpenAIServer()
})
t.teardown(() => fake.close())
t.beforeEach(() => {
  fake.requests.length = 0
  Object.assign(fake.behavior, { mode: 'ok', ignoreDimensions: false, ignoreEncodingFormat: false, reverseOrder: false })
})

function provider(overrides: Partial<EmbeddingSettings> = {}) {
  return createEmbeddingProvider({ provider: 'openai', openaiApiKey: fake.validKey, openaiBaseUrl: fake.baseURL, maxRetries: 0, ...overrides })
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (err) {
    return err
  }
  throw new Error('expected the promise to reject')
}

t.test('embeds every input as a 1536-number vector, in input order, batched', async (t) => {
  const texts = Array.from({ length: 250 }, (_, i) => `note ${'x'.repeat(i)}`)
  const p = provider({ batchSize: 100 })
  t.equal(p.name, 'openai')
  t.equal(p.model, 'text-embedding-3-large')

  const vectors = await p.embed(texts)

  t.equal(vectors.length, texts.length)
  t.ok(
    vectors.every((v) => v.length === EMBEDDING_DIMENSIONS),
    'every vector has 1536 numbers',
  )
  t.same(
    vectors.map((v) => v[0]),
    texts.map((text) => text.length),
    'vector i belongs to input i',
  )
  t.equal(fake.requests.length, Math.ceil(texts.length / 100), 'ceil(N / batchSize) requests')
  t.same(
    fake.requests.map((r) => (r.body.input as string[]).length).sort((a, b) => b - a),
    [100, 100, 50],
  )
  for (const request of fake.requests) {
    t.equal(request.path, '/v1/embeddings')
    t.equal(request.authorization, `Bearer ${fake.validKey}`)
    t.equal(request.body.model, 'text-embedding-3-large')
    t.equal(request.body.dimensions, 1536)
  }
})

t.test('uses the configured model and places vectors by index, not by position', async (t) => {
  fake.behavior.reverseOrder = true
  const texts = ['a', 'bb', 'ccc', 'dddd']
  const vectors = await provider({ openaiModel: 'my-embedder' }).embed(texts)
  t.same(
    vectors.map((v) => v[0]),
    [1, 2, 3, 4],
  )
  t.equal(fake.requests[0].body.model, 'my-embedder')
})

t.test('accepts float arrays from servers that ignore encoding_format', async (t) => {
  fake.behavior.ignoreEncodingFormat = true
  const vectors = await provider().embed(['hello', 'world!'])
  t.same(
    vectors.map((v) => v.length),
    [1536, 1536],
  )
  t.same(
    vectors.map((v) => v[0]),
    [5, 6],
  )
})

t.test('inputs over the token cap arrive truncated to a prefix within the cap', async (t) => {
  const long = 'hello world '.repeat(6000)
  t.ok(countTokens(long) > EMBEDDING_INPUT_TOKEN_CAP, 'the input really is over the cap')
  await provider().embed([long, 'short'])
  const sent = fake.requests[0].body.input as string[]
  t.ok(long.startsWith(sent[0]), 'truncated input is a prefix of the original')
  t.ok(sent[0].length < long.length)
  const sentTokens = countTokens(sent[0])
  t.ok(sentTokens <= EMBEDDING_INPUT_TOKEN_CAP && sentTokens > EMBEDDING_INPUT_TOKEN_CAP - 10, `sent ${sentTokens} tokens`)
  t.equal(sent[0], capToTokenLimit(long))
  t.equal(sent[1], 'short', 'inputs under the cap are untouched')
})

t.test('splits batches whose inputs together exceed the per-request token budget', async (t) => {
  const big = 'lorem ipsum dolor '.repeat(3000)
  const capped = countTokens(capToTokenLimit(big))
  const perRequest = Math.floor(300_000 / capped)
  const texts = Array.from({ length: perRequest + 3 }, () => big)
  await provider({ batchSize: 2048 }).embed(texts)
  t.equal(fake.requests.length, 2)
  for (const request of fake.requests) {
    const total = (request.body.input as string[]).reduce((sum, text) => sum + countTokens(text), 0)
    t.ok(total <= 300_000, `request carries ${total} tokens`)
  }
})

t.test('empty list makes no request; empty strings are sent as a space', async (t) => {
  t.same(await provider().embed([]), [])
  t.equal(fake.requests.length, 0)
  await provider().embed(['', 'x'])
  t.same(fake.requests[0].body.input, [' ', 'x'])
})

t.test('HTTP 500 becomes a ProviderError', async (t) => {
  fake.behavior.mode = 'error500'
  const err = await rejection(provider().embed(['a']))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_server_error')
  t.match((err as ProviderError).hint, /retry/i)
})

t.test('maxRetries is passed to the client', async (t) => {
  fake.behavior.mode = 'error500'
  const err = await rejection(provider({ maxRetries: 1 }).embed(['a']))
  t.equal((err as ProviderError).code, 'embedding_server_error')
  t.equal(fake.requests.length, 2, 'one try plus one retry')
})

t.test('a server that never answers times out as a ProviderError', async (t) => {
  fake.behavior.mode = 'hang'
  const started = Date.now()
  const err = await rejection(provider({ timeoutMs: 300 }).embed(['a']))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_timeout')
  t.ok(Date.now() - started < 5000, 'fails promptly')
})

t.test('a bad API key (401) is a ProviderError with its own code', async (t) => {
  const err = await rejection(provider({ openaiApiKey: 'sk-wrong' }).embed(['a']))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_auth_failed')
  t.not((err as ProviderError).code, 'embedding_server_error')
  t.match((err as ProviderError).hint, /OPENAI_API_KEY/)
  t.notMatch((err as ProviderError).message, /sk-wrong/, 'the key is not echoed')
})

t.test('connection refused is a ProviderError', async (t) => {
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const { port } = closed.address() as AddressInfo
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  const err = await rejection(provider({ openaiBaseUrl: `http://127.0.0.1:${port}/v1` }).embed(['a']))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_connection_failed')
})

t.test('vectors of the wrong width are rejected, not stored', async (t) => {
  fake.behavior.ignoreDimensions = true
  fake.behavior.nativeDimensions = 768
  const err = await rejection(provider().embed(['a']))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_dimension_mismatch')
})

t.test('an abort signal cancels a request in flight and one aborted up front', async (t) => {
  fake.behavior.mode = 'hang'
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 100)
  const err = await rejection(provider({ timeoutMs: 30_000 }).embed(['a'], { signal: controller.signal }))
  t.type(err, ProviderError)
  t.equal((err as ProviderError).code, 'embedding_aborted')

  fake.requests.length = 0
  const early = await rejection(provider().embed(['a'], { signal: AbortSignal.abort() }))
  t.equal((early as ProviderError).code, 'embedding_aborted')
  t.equal(fake.requests.length, 0, 'no request after an abort')
})

t.test('settings are validated when the provider is created', async (t) => {
  t.throws(() => createEmbeddingProvider({ provider: 'openai' }), { errorClass: 'ConfigError', code: 'embedding_api_key_missing' })
  t.throws(() => createEmbeddingProvider({ provider: 'openai', openaiApiKey: 'k', batchSize: 0 }), { errorClass: 'ConfigError', code: 'embedding_invalid_setting' })
  t.throws(() => createEmbeddingProvider({ provider: 'nope' } as unknown as EmbeddingSettings), { errorClass: 'ConfigError', code: 'embedding_unknown_provider' })
  const keyless = createEmbeddingProvider({ provider: 'openai', openaiBaseUrl: fake.baseURL, maxRetries: 0 })
  const err = await rejection(keyless.embed(['a']))
  t.equal((err as ProviderError).code, 'embedding_auth_failed', 'a keyless custom server is still asked')
})
