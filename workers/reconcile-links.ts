import { reconcileLinks } from '../src/links/index.js'
import { defineJob } from '../src/queue/index.js'

/** The autopilot's reconcile-links phase: every markdown page's links, re-derived idempotently. */
export default defineJob({
  name: 'reconcile-links',
  run: async (ctx) => reconcileLinks(ctx.db, ctx.config, { dryRun: ctx.data.dryRun, signal: ctx.signal }),
})
