import { z } from 'zod'
import { reconcileLinks } from '../src/links/index.js'
import { ValidationError } from '../src/errors/index.js'
import { defineJob } from '../src/queue/index.js'

/** The autopilot's reconcile-links phase: every markdown page's links, re-derived idempotently. */
export default defineJob({
  name: 'reconcile-links',
  data: z.looseObject({
    dryRun: z
      .unknown()
      .optional()
      .transform((flag) => flag === true),
  }),
  invalid: (problem) => new ValidationError('invalid_reconcile_job', `reconcile-links data.${problem.key}: ${problem.message}`),
  run: async (ctx) => reconcileLinks(ctx.db, ctx.config, { dryRun: ctx.data.dryRun, signal: ctx.signal }),
})
