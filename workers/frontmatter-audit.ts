import { NotAvailableError } from '../src/errors/index.js'
import type { JobHandler } from './handler.js'

/** Stands in until the frontmatter audit capability lands: the job ends dead with a clear reason instead of pretending. */
const handler: JobHandler = async () => {
  throw new NotAvailableError('frontmatter_audit_not_available', 'The frontmatter audit job handler is not available in this build.', {
    hint: 'Upgrade brain to a release that includes frontmatter audit.',
  })
}

export default handler
