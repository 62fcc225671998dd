import t from 'tap'
import { backgroundThreadPoolSize, longRunningNodeArgs } from '../../src/util/background-threads.js'

t.test("V8's background pool leaves one core to the main thread, at most node's four", async (t) => {
  t.same(
    [1, 2, 3, 4, 5, 16].map((cores) => backgroundThreadPoolSize(cores)),
    [1, 1, 2, 3, 4, 4],
  )
})

t.test('a long-running process is started with the pool unless NODE_OPTIONS sizes it', async (t) => {
  t.same(longRunningNodeArgs({}, 2), ['--v8-pool-size=1'])
  t.same(longRunningNodeArgs({ NODE_OPTIONS: '--max-old-space-size=4096' }, 8), ['--v8-pool-size=4'])
  t.same(longRunningNodeArgs({ NODE_OPTIONS: '--enable-source-maps --v8-pool-size=6' }, 2), [], "the user's own setting stands")
})
