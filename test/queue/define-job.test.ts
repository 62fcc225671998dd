// test-runner: shares a process
/**
 * Every job handler is a definition with a name and a data schema, and a payload its schema
 * refuses ends with the handler's own error code before anything runs.
 */
import t from 'tap'
import * as z from 'zod'
import { ValidationError } from '../../src/errors/index.js'
import { defineJob, type DefinedJob, type JobContext } from '../../src/queue/handler.js'
import { JOB_NAMES } from '../../src/queue/types.js'
import { handlerLoaders } from '../../workers/registry.js'

t.test('each handler in workers/ carries its name and data schema', async (t) => {
  for (const name of JOB_NAMES) {
    const handler = (await handlerLoaders[name]()) as DefinedJob
    t.equal(handler.jobName, name, `${name} is named`)
    t.ok(handler.dataSchema instanceof z.ZodType, `${name} has a data schema`)
  }
})

t.test('a refused payload raises the handler error, and run never sees it', async (t) => {
  let ran = 0
  const job = defineJob({
    name: 'extract',
    run: async (ctx) => {
      ran++
      return ctx.data.slugs?.length ?? -1
    },
  })
  const ctx = (data: Record<string, unknown>) => ({ data }) as unknown as JobContext
  await t.rejects(job(ctx({ slugs: 'x' })), { code: 'extract_invalid_slugs' })
  await t.rejects(job(ctx({ slugs: [], sourceId: 7 })), { code: 'extract_invalid_source' }, 'a source id is a string')
  t.equal(ran, 0)
  t.equal(await job(ctx({ slugs: ['a', 'b'] })), 2, 'valid data reaches run, parsed')
  t.equal(job.jobName, 'extract')
})

t.test('the built-in handlers keep their codes for bad data', async (t) => {
  const cases: Array<[(typeof JOB_NAMES)[number], Record<string, unknown>, string]> = [
    ['embed', { mode: 'sideways' }, 'embed_invalid_mode'],
    ['extract', { slugs: 'notes/a' }, 'extract_invalid_slugs'],
    ['capture', { content: '  ' }, 'capture_empty'],
    ['capture', { content: 'x', captured_at: 'someday' }, 'invalid_capture_job'],
    ['import', {}, 'import_requires_path'],
    ['sync', { sourceId: '' }, 'invalid_sync_data'],
    ['sync', { noEmbed: 'yes' }, 'invalid_sync_data'],
    ['import', { path: '/x', sourceId: 3 }, 'invalid_import_job'],
    ['autopilot-cycle', { phase: 'nap' }, 'unknown_phase'],
    ['autopilot-cycle', { phases: ['sync', 'nap'] }, 'unknown_phase'],
    ['autopilot-cycle', { sleep: true }, 'invalid_autopilot_job'],
    ['ingest_capture', {}, 'invalid_ingestion_event'],
  ]
  for (const [name, data, code] of cases) {
    const handler = await handlerLoaders[name]()
    await t.rejects(handler({ data } as unknown as JobContext), { code }, `${name} ${JSON.stringify(data)} → ${code}`)
  }
})
