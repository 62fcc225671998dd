import t from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { stockBackend } from '../../src/embedding/local/local-backends.js'
import { configureLocalEmbeddings, disposeLocalEmbeddings, localBackend } from '../../src/embedding/local/local-runtime.js'
import { nativeBackend, type NativeModel } from '../../src/embedding/local/native-backend.js'
import { UseLiteTokenizer } from '../../src/embedding/local/use-lite-tokenizer.js'
import { readUseLiteWeights } from '../../src/embedding/local/use-lite-weights.js'
import { cosine, FIXED_INPUTS, sentence } from './fixed-inputs.js'

t.teardown(async () => {
  await disposeLocalEmbeddings()
  configureLocalEmbeddings({})
})

/** Texts for the tokenizer comparison: the fixed set, this repository's prose and code, and random symbol soup. */
function tokenizerTexts(): string[] {
  const texts = [...FIXED_INPUTS, '', ' ', '\u00a0', '🎉🎉🎉', `${'a'.repeat(1_500)} tail`, 'ǅ ﬁ ① ㎏ Ａ e\u0301 \u200b']
  for (const file of ['README.md', 'CHANGELOG.md', 'src/embedding/local/use-lite-onnx.ts']) {
    const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')
    for (let at = 0; at < text.length; at += 400) texts.push(text.slice(at, at + 400))
  }
  const alphabet = [...'aé日本🎉 \n\t.,;:!?-_()[]{}<>/\\\'"`~@#$%^&*+=|0123456789ßǅﬁ①㎏ＡＢ\u0301\u200b', '\ud83d']
  let seed = 7
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
  for (let i = 0; i < 1_500; i++) texts.push(Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''))
  return texts
}

t.test('the linear-time tokenizer gives exactly the reference tokenizer ids', async (t) => {
  const { vocabulary } = await readUseLiteWeights()
  const reference = new EmbeddingsModel({ vocabulary, model: null } as never).tokenizer
  const tokenizer = new UseLiteTokenizer(vocabulary)
  const texts = tokenizerTexts()
  const mismatches = texts.filter((text) => tokenizer.encode(text).join(',') !== reference.encode(text).join(','))
  t.same(mismatches, [], `${texts.length} texts compared`)
  t.ok(tokenizer.encode(sentence).length > 5, 'a sentence yields several ids')
})

t.test('native vectors equal the stock vectors within 1e-4 cosine', async (t) => {
  configureLocalEmbeddings({ mode: 'native' })
  const backend = await localBackend()
  t.equal(backend.kind, 'native', 'onnxruntime-node loaded and its session started')
  const batched = await backend.embed(FIXED_INPUTS, 3)
  const alone = await Promise.all(FIXED_INPUTS.map(async (input) => (await backend.embed([input], 3))[0]!))
  const stock = await stockBackend.embed(FIXED_INPUTS, 32)
  for (let i = 0; i < FIXED_INPUTS.length; i++) {
    const distance = 1 - cosine(batched[i]!, stock[i]!)
    t.ok(distance <= 1e-4, `input ${i} batched: 1 - cos = ${distance.toExponential(2)}`)
    t.ok(1 - cosine(alone[i]!, stock[i]!) <= 1e-4, `input ${i} alone (no padding)`)
  }
  t.ok(cosine(batched[0]!, batched[3]!) < 0.99, 'different inputs give different vectors')
})

t.test('the provider keeps input order whatever the batch size, queries included', async (t) => {
  configureLocalEmbeddings({ mode: 'native' })
  const inputs = [sentence.repeat(9), 'short', sentence.repeat(2), 'a medium sized sentence about gardens', sentence.repeat(20), 'tiny', 'another one about the queue']
  const one = await createEmbeddingProvider({ provider: 'local', batchSize: 1 }).embed(inputs)
  const three = await createEmbeddingProvider({ provider: 'local', batchSize: 3 }).embed(inputs)
  const query = await createEmbeddingProvider({ provider: 'local' }).embed([inputs[4]!])
  for (let i = 0; i < inputs.length; i++) t.ok(cosine(one[i]!, three[i]!) > 1 - 1e-6, `input ${i} keeps its place`)
  t.ok(cosine(three[4]!, query[0]!) > 1 - 1e-4, 'a query embeds like the same text in a batch')
  t.equal(query[0]!.length, 1536, 'padded to the schema width')
})

t.test('the model runs on a thread of its own: the event loop turns while a batch is embedded', async (t) => {
  configureLocalEmbeddings({ mode: 'native' })
  const backend = await localBackend()
  t.equal(backend.kind, 'native')
  await backend.embed(['warm up'], 4)
  // onnxruntime-node's run holds the thread that calls it to the end of the model call, so on
  // the main thread a whole batch passes without one turn of the loop.
  let turns = 0
  let done = false
  const turn = (): void => {
    turns++
    if (!done) setImmediate(turn)
  }
  setImmediate(turn)
  const vectors = await backend.embed(
    Array.from({ length: 4 }, (_, i) => `Batch input ${i}. ${sentence.repeat(12)}`),
    4,
  )
  done = true
  t.equal(vectors.length, 4)
  t.ok(turns >= 10, `${turns} turns of the event loop during one model call`)
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('onnxruntime-node'))
  t.same(loaded, [], 'the runtime is not loaded on the main thread')
})

t.test('a query during a bulk embed finishes before the bulk work', async (t) => {
  configureLocalEmbeddings({ mode: 'native', nativeConcurrency: 1 })
  const provider = createEmbeddingProvider({ provider: 'local', batchSize: 4 })
  await provider.embed(['warm up'])
  const bulk = Array.from({ length: 120 }, (_, i) => `Section ${i}. ${sentence.repeat(12)}`)
  let bulkDone = false
  const running = provider.embed(bulk).then((vectors) => {
    bulkDone = true
    return vectors
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  const [query] = await provider.embed(['where is the retry policy documented'])
  t.equal(bulkDone, false, 'the query did not wait for the queued batches')
  t.equal(query!.length, 1536)
  t.equal((await running).length, bulk.length)
  await disposeLocalEmbeddings()
})

t.test('an abort signal stops a long native embed at once, and the backend keeps working', async (t) => {
  configureLocalEmbeddings({ mode: 'native' })
  const provider = createEmbeddingProvider({ provider: 'local', batchSize: 4 })
  await provider.embed(['warm', 'the', 'session'])
  const long = Array.from({ length: 2_000 }, (_, i) => `Section ${i}. ${sentence.repeat(18)}`)
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error('job cancelled')), 100)
  const started = Date.now()
  await t.rejects(provider.embed(long, { signal: controller.signal }), { code: 'embedding_aborted' })
  t.ok(Date.now() - started < 2_000, `stopped after ${Date.now() - started} ms of a run that takes many seconds`)
  const after = await provider.embed(['still', 'working', 'fine'])
  t.equal(after.length, 3)
})

for (const [label, runtimeModule, cause] of [
  ['onnxruntime-node cannot load', 'onnxruntime-node-not-installed', /could not start.*onnxruntime-node-not-installed/],
  ['the session cannot start', new URL('./fixtures/failing-onnxruntime.js', import.meta.url).href, /could not start.*session failed to initialise/],
] as const) {
  t.test(`when ${label}, embedding falls back to the wasm path with one warning`, async (t) => {
    await disposeLocalEmbeddings()
    const warnings: string[] = []
    configureLocalEmbeddings({ mode: 'native', nativeRuntimeModule: runtimeModule, maxWorkers: 1, onWarning: (message) => warnings.push(message) })
    const provider = createEmbeddingProvider({ provider: 'local' })
    const inputs = ['first input', 'second input about databases', 'third input about gardening']
    const vectors = await provider.embed(inputs)
    t.equal(vectors.length, 3, 'the embed still succeeds')
    t.equal((await localBackend()).kind, 'fast', 'the wasm worker path took over')
    t.equal(warnings.length, 1)
    t.match(warnings[0], cause)
    const stock = await stockBackend.embed(inputs, 32)
    for (let i = 0; i < 3; i++) t.ok(cosine(vectors[i]!.slice(0, 512), stock[i]!) > 1 - 1e-6, `input ${i} is the stock vector`)
    const [query] = await provider.embed(['a query after the fallback'])
    t.equal(query!.length, 1536, 'queries still embed (in-process stock path)')
    t.equal(warnings.length, 1, 'the fallback is decided once per process')
    await disposeLocalEmbeddings()
  })
}

t.test('model calls in flight stay bounded: bulk at the limit, urgent calls one above it', async (t) => {
  let inFlight = 0
  let most = 0
  const order: string[] = []
  const model: NativeModel = {
    async embedTexts(texts) {
      inFlight++
      most = Math.max(most, inFlight)
      order.push(texts.length === 1 && texts[0] === 'query' ? 'query' : 'bulk')
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      return new Float32Array(texts.length * 512)
    },
    release: async () => {},
  }
  const backend = nativeBackend(model, { concurrency: 2 })
  const bulk = backend.embed(
    Array.from({ length: 40 }, (_, i) => `bulk input ${i}`),
    2,
  )
  const pages = Array.from({ length: 12 }, (_, i) => backend.embed([`page ${i} a`, `page ${i} b`], 4))
  await new Promise((resolve) => setTimeout(resolve, 1))
  const query = backend.embed(['query'], 4)
  const results = await Promise.all([bulk, ...pages, query])
  t.equal(most, 3, 'never more than concurrency + 1 calls at once')
  t.ok(order.indexOf('query') < order.lastIndexOf('bulk'), 'the query went ahead of queued bulk batches')
  t.equal(results[0]!.length, 40)
  t.ok(results.every((vectors) => vectors.every((v) => v.length === 512)))
})
