// test-runner: shares a process
import t from 'tap'
import { EMBEDDING_USD_PER_1K_TOKENS, estimateEmbeddingCostUsd, parseVectorLiteral, toVectorLiteral } from '../../src/embedding/index.js'

t.test('cost is tokens / 1000 * 0.00013 USD', async (t) => {
  t.equal(EMBEDDING_USD_PER_1K_TOKENS, 0.00013)
  t.equal(estimateEmbeddingCostUsd(0), 0)
  t.equal(estimateEmbeddingCostUsd(1000), 0.00013)
  t.ok(Math.abs(estimateEmbeddingCostUsd(1_000_000) - 0.13) < 1e-12)
  t.ok(Math.abs(estimateEmbeddingCostUsd(2500) - 0.000325) < 1e-15)
  t.throws(() => estimateEmbeddingCostUsd(-1), { errorClass: 'ValidationError', code: 'embedding_cost_invalid_tokens' })
  t.throws(() => estimateEmbeddingCostUsd(Number.NaN), { errorClass: 'ValidationError', code: 'embedding_cost_invalid_tokens' })
})

t.test('vector literals round-trip exactly', async (t) => {
  const vector = Array.from({ length: 1536 }, (_, i) => Math.fround(Math.sin(i + 1) / (i + 1)))
  vector[3] = 0
  vector[4] = -0.5
  vector[5] = 1e-30
  const literal = toVectorLiteral(vector)
  t.match(literal, /^\[-?\d/)
  t.notMatch(literal, /\s/)
  t.equal(literal.split(',').length, 1536)
  t.same(parseVectorLiteral(literal), vector)
  t.equal(toVectorLiteral([0.1, 0.2, -3]), '[0.1,0.2,-3]')
})

t.test('parseVectorLiteral reads pgvector output and rejects garbage', async (t) => {
  t.same(parseVectorLiteral('[1,2.5,-3e-2]'), [1, 2.5, -0.03])
  t.same(parseVectorLiteral(' [ 1 , 2 ] '), [1, 2])
  t.same(parseVectorLiteral('[]'), [])
  for (const bad of ['1,2', '[1,,2]', '[1,abc]', '[1,2', '', '[NaN]', '[1,Infinity]']) {
    t.throws(() => parseVectorLiteral(bad), { errorClass: 'ValidationError', code: 'vector_literal_invalid' }, `rejects ${JSON.stringify(bad)}`)
  }
})

t.test('toVectorLiteral refuses values pgvector cannot store', async (t) => {
  t.throws(() => toVectorLiteral([1, Number.NaN]), { errorClass: 'ValidationError', code: 'vector_not_finite' })
  t.throws(() => toVectorLiteral([Number.POSITIVE_INFINITY]), { errorClass: 'ValidationError', code: 'vector_not_finite' })
})
