import { NotAvailableError } from '../src/errors/index.js'
import type { JobHandler } from './handler.js'

/** Stands in until the sync capability lands: the job ends dead with a clear reason instead of pretending. */
const handler: JobHandler = async () => {
  throw new NotAvailableError('sync_not_available', 'The sync job handler is not available in this build.', {
    hint: 'Upgrade brain to a release that includes sync.',
  })
}

export default handler
