// test-runner: shares a process
import t from 'tap'
import { planBatches } from '../../src/embedding/providers/batching.js'
import { padToDimensions } from '../../src/embedding/store/vectors.js'

t.test('batches by input count', async (t) => {
  t.same(planBatches(0, { maxInputs: 10 }), [])
  t.same(planBatches(5, { maxInputs: 10 }), [[0, 5]])
  t.same(planBatches(25, { maxInputs: 10 }), [
    [0, 10],
    [10, 20],
    [20, 25],
  ])
  t.same(planBatches(3, { maxInputs: 1 }), [
    [0, 1],
    [1, 2],
    [2, 3],
  ])
})

t.test('batches by cost budget, giving an oversized input its own batch', async (t) => {
  t.same(planBatches(4, { maxInputs: 10, maxCost: 100 }, [60, 30, 20, 10]), [
    [0, 2],
    [2, 4],
  ])
  t.same(planBatches(3, { maxInputs: 10, maxCost: 100 }, [150, 10, 10]), [
    [0, 1],
    [1, 3],
  ])
  t.same(planBatches(3, { maxInputs: 2, maxCost: 1000 }, [1, 1, 1]), [
    [0, 2],
    [2, 3],
  ])
})

t.test('padding keeps the values and appends zeros', async (t) => {
  const padded = padToDimensions([0.5, -0.25, 1], 6)
  t.same(padded, [0.5, -0.25, 1, 0, 0, 0])
  t.equal(padToDimensions(new Float32Array(512).fill(1)).length, 1536)
  t.throws(() => padToDimensions([1, 2, 3], 2))
})
