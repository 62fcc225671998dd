import { reconcileLinks } from '../src/links/index.js'
import type { JobHandler } from '../src/queue/handler.js'

/** The autopilot's reconcile-links phase: every markdown page's citation links, added idempotently. */
const handler: JobHandler = async (ctx) => reconcileLinks(ctx.db, ctx.config, { dryRun: ctx.data.dryRun === true, signal: ctx.signal })

export default handler
