// test-runner: shares a process
/**
 * The job catalogue types its handlers and submissions: a handler filed under another job's
 * name, or data of the wrong type, does not compile. The `@ts-expect-error` lines are the test
 * (the typecheck runs over test/, and an expected error that is not there fails it); the
 * assertions check that the catalogue the types come from is the one the queue runs.
 */
import t from 'tap'
import { defineJob, type DefinedJob, type JobContext } from '../../src/queue/handler.js'
import type { JobData } from '../../src/queue/catalogue.js'
import type { Queue } from '../../src/queue/types.js'
import { JOB_NAMES } from '../../src/queue/types.js'
import { handlerLoaders } from '../../workers/registry.js'

const embedHandler = defineJob({ name: 'embed', run: async (ctx) => ctx.data.mode })

// A wrong pairing: the embed handler filed as the sync job's loader.
// @ts-expect-error DefinedJob<'embed'> is not DefinedJob<'sync'>
const wrongLoader: DefinedJob<'sync'> = embedHandler

/** Never called: what it defines exists only to be type-checked. */
function wrongDefinitions(): void {
  // A handler reads its own job's fields only: sync's data has no `mode`.
  // @ts-expect-error Property 'mode' does not exist on the sync job's data
  defineJob({ name: 'sync', run: async (ctx) => ctx.data.mode })
  // A name outside the catalogue has no handler.
  // @ts-expect-error '"nap"' is not a handler name
  defineJob({ name: 'nap', run: async () => null })
}

// Flags are booleans, not anything truthy.
// @ts-expect-error Type 'string' is not assignable to type 'boolean'
const stringFlag: JobData<'sync'> = { noEmbed: 'yes' }

// A source id is a string.
// @ts-expect-error Type 'number' is not assignable to type 'string'
const numericSource: JobData<'extract'> = { sourceId: 7 }

// Autopilot and shell data are objects of known keys.
// @ts-expect-error 'sleep' does not exist in the autopilot cycle's data
const unknownPhaseKey: JobData<'autopilot-cycle'> = { sleep: true }

async function submits(queue: Queue): Promise<void> {
  await queue.submit('embed', { mode: 'all' })
  // @ts-expect-error 'sideways' is not an embed mode
  await queue.submit('embed', { mode: 'sideways' })
  // @ts-expect-error import data needs its path
  await queue.submit('import', { noEmbed: true })
}

t.test('the typed pieces are the ones the queue runs', async (t) => {
  t.ok(typeof submits === 'function' && typeof wrongDefinitions === 'function' && wrongLoader !== undefined && stringFlag !== undefined && numericSource !== undefined && unknownPhaseKey !== undefined)
  for (const name of JOB_NAMES) {
    const handler = await handlerLoaders[name]()
    t.equal(handler.jobName, name, `the ${name} loader loads the ${name} handler`)
  }
  const ctx = { data: { mode: 'all' } } as unknown as JobContext
  t.equal(await embedHandler(ctx), 'all', 'a defined handler parses its data with the catalogue schema')
})
