// test-runner: shares a process
import t from 'tap'
import { openQueue } from '../../src/queue/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { testConfig, testLogger } from '../queue/helpers.js'
import { makePdf } from './pdf-fixtures.js'

engineTest(t, 'ingest_capture converts a base64 PDF event; the same file again is skipped; unknown binary is refused', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger() })
  t.teardown(() => queue.close())
  const bytes = await makePdf([{ heading: 'Minutes', lines: ['We met.'] }, { lines: ['We agreed.'] }], { title: 'Board Minutes' })
  const event = {
    content_type: 'application/pdf',
    content_encoding: 'base64',
    content: Buffer.from(bytes).toString('base64'),
    source_id: 'inbox',
    source_uri: 'file:///inbox/minutes.pdf',
    metadata: { file_name: 'minutes.pdf' },
  }
  const job = await queue.submitAndWait('ingest_capture', { event })
  t.match(job.result, { slug: 'inbox/minutes', status: 'created' })
  const page = await findPage(db, 'default', 'inbox/minutes')
  t.match(page, { title: 'Board Minutes', frontmatter: { source_format: 'pdf', pages: 2 }, sourceUri: 'file:///inbox/minutes.pdf', sourceKind: 'inbox' })
  t.match(page!.compiledTruth, /We agreed\./)
  const again = await queue.submitAndWait('ingest_capture', { event })
  t.match(again.result, { slug: 'inbox/minutes', status: 'skipped' })
  const png = await queue.submitAndWait('ingest_capture', { event: { ...event, content_type: 'image/png', content: Buffer.from('PNG').toString('base64'), metadata: { file_name: 'x.png' } } }).then(
    () => null,
    (err: unknown) => err,
  )
  t.match(png, { code: 'binary_content_unsupported' })
})
