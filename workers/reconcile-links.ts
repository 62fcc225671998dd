import { NotAvailableError } from '../src/errors/index.js'
import type { JobHandler } from './handler.js'

/** Stands in until the reconcile links capability lands: the job ends dead with a clear reason instead of pretending. */
const handler: JobHandler = async () => {
  throw new NotAvailableError('reconcile_links_not_available', 'The reconcile links job handler is not available in this build.', {
    hint: 'Upgrade brain to a release that includes reconcile links.',
  })
}

export default handler
