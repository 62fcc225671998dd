import { NotAvailableError } from '../src/errors/index.js'
import type { JobHandler } from './handler.js'

/** Stands in until the ingest capture capability lands: the job ends dead with a clear reason instead of pretending. */
const handler: JobHandler = async () => {
  throw new NotAvailableError('ingest_capture_not_available', 'The ingest capture job handler is not available in this build.', {
    hint: 'Upgrade brain to a release that includes ingest capture.',
  })
}

export default handler
