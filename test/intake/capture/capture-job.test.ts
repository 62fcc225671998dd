// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../../src/db/types.js'
import { findPage } from '../../../src/pages/index.js'
import captureHandler from '../../../workers/capture.js'
import type { JobContext } from '../../../src/queue/handler.js'
import { engineTest } from '../../helpers/engines.js'
import { testConfig, testLogger } from '../../queue/helpers.js'

function ctx(db: Database, data: Record<string, unknown>): JobContext {
  return { jobId: 'j', name: 'capture', data, signal: new AbortController().signal, db, config: testConfig(), logger: testLogger(), progress: () => undefined }
}

engineTest(t, 'the capture job shapes the content, writes the page and returns the receipt', async (t, { db }) => {
  const receipt = await captureHandler(ctx(db, { content: 'Buy more coffee filters', captured_at: '2024-05-02T10:00:00Z', source: 'chat', noEmbed: true }))
  t.match(receipt, { status: 'created', slug: /^inbox\/2024-05-02-[0-9a-f]{8}$/, title: 'Buy more coffee filters', wrapped: true, contentHash: /^[0-9a-f]{64}$/ })
  const page = await findPage(db, 'default', (receipt as { slug: string }).slug)
  t.match(page, { sourceUri: 'chat', sourceKind: 'capture', frontmatter: { captured_via: 'chat', captured_at: '2024-05-02T10:00:00.000Z' } })
  const again = await captureHandler(ctx(db, { content: 'Buy more coffee filters', captured_at: '2024-05-02T18:00:00Z', source: 'chat', noEmbed: true }))
  t.match(again, { slug: (receipt as { slug: string }).slug }, 'same content, same day: same slug')
})

engineTest(t, 'the capture job refuses empty content and malformed fields', async (t, { db }) => {
  await t.rejects(captureHandler(ctx(db, {})), { errorClass: 'UsageError', code: 'capture_empty' })
  await t.rejects(captureHandler(ctx(db, { content: '  \n' })), { code: 'capture_empty' })
  await t.rejects(captureHandler(ctx(db, { content: 'x', slug: 42 })), { errorClass: 'UsageError', code: 'invalid_capture_job', message: /data\.slug must be a string/ })
  await t.rejects(captureHandler(ctx(db, { content: 'x', captured_at: 'yesterday' })), { code: 'invalid_capture_job', message: /not a date/ })
})
