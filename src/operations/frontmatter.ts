import * as z from 'zod'
import type { AuditReport } from '../frontmatter/index.js'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation, type Operation } from './operation.js'

const COMMAND = 'brain frontmatter audit'

function describeAudit(report: JsonCamelCased<AuditReport>): string {
  if (report.sources.length === 0) return 'No sources to audit; add one with `brain sources add <id> --path <dir>`.'
  const lines = report.sources.map((s) => {
    if (s.status !== 'scanned') return `${s.sourceId}: not scanned (${s.status === 'missing_path' ? `${s.path} does not exist` : 'no local directory'})`
    const counts = Object.entries(s.counts)
      .filter(([, n]) => n > 0)
      .map(([code, n]) => `${code} ${n}`)
    return `${s.sourceId} (${s.path}): ${s.files} file(s), ${s.filesWithIssues} with problems${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`
  })
  if (report.totals.filesWithIssues > 0) lines.push('Repair with `brain frontmatter validate <source-path> --fix` (add --dry-run to preview).')
  return lines.join('\n')
}

const auditFrontmatterTool = defineOperation({
  name: 'audit_frontmatter',
  description:
    "Read-only front matter scan of every registered source's directory on the brain host (or one source), each with its sync filter. Returns {sources: [{source_id, path, status, files, files_with_issues, counts: {<error code>: n}, issues: [{path, code, line}]}], totals}. Never changes a file.",
  input: z.strictObject({ source: z.string().trim().min(1).optional().describe('Only this source') }),
  mutating: false,
  async run(ctx, args) {
    const { auditSources, brainIsInUse, loadPageRoots, noBrainError, requireConfiguredBrain } = await import('../frontmatter/index.js')
    const { listSources, requireSource } = await import('../intake/sources/index.js')
    // Checked before the database opens: opening an embedded brain nobody made would create it.
    if (ctx.config) requireConfiguredBrain(await ctx.config(), COMMAND)
    const { db, config } = await ctx.brain()
    if (!(await brainIsInUse(config, db))) throw noBrainError(config, COMMAND)
    const sources = args.source ? [await requireSource(db, args.source)] : await listSources(db)
    const report = await auditSources(sources, { roots: await loadPageRoots(db), signal: ctx.signal })
    return { ...report }
  },
  present: { text: describeAudit },
  cli: {
    path: ['frontmatter', 'audit'],
    description: 'Read-only front matter scan of every registered source (or one), counted by error code',
    details: 'Never changes a file. Each source is scanned with its own sync filter; the JSON form lists every problem with its file and line.',
    examples: [
      ['Audit every source', '$0 frontmatter audit'],
      ['Audit one source as JSON', '$0 frontmatter audit --source notes --json'],
    ],
    options: [{ field: 'source', flag: '--source', kind: 'string', description: 'Only this source' }],
  },
})

export const frontmatterTools: Operation[] = [auditFrontmatterTool]
