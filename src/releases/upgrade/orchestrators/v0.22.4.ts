import { writeFileSync } from 'node:fs'
import type { AuditReport } from '../../../frontmatter/index.js'
import { appendHostWork, shellWord, type HostWorkItem } from '../host-work.js'
import { upgradePaths } from '../ledger.js'
import { skippedWithoutBrain, type MigrationContext, type VersionOrchestrator } from '../orchestrator.js'

const VERSION = '0.22.4'
const AUDIT_KEY = 'v0.22.4:audit'

/**
 * The frontmatter migration is audit-only: no schema change, no page touched. It records what
 * is wrong in each source and queues one follow-up per source with problems, naming the
 * command that repairs it.
 */
export const v0_22_4: VersionOrchestrator = {
  version: VERSION,
  summary: 'Front matter validation: audit every source and queue `brain frontmatter validate <source-path> --fix` for sources with problems (no page is changed).',
  rewritesPages: false,
  phases: [
    {
      name: 'schema',
      run: async () => ({ status: 'completed', detail: 'no schema change in this version' }),
    },
    {
      name: 'audit',
      async run(ctx) {
        if (!ctx.withBrain) return skippedWithoutBrain()
        const { auditSources, loadPageRoots, nonZeroCounts } = await import('../../../frontmatter/index.js')
        const { listSources } = await import('../../../intake/sources/source-repository.js')
        const report = await ctx.withBrain(async (db) => auditSources(await listSources(db), { roots: await loadPageRoots(db) }))
        ctx.state.set(AUDIT_KEY, report)
        const file = upgradePaths(ctx.home).auditFile(VERSION)
        const summary = {
          version: VERSION,
          generated_at: ctx.now().toISOString(),
          sources: report.sources.map((s) => ({ source_id: s.sourceId, path: s.path, status: s.status, files: s.files, files_with_issues: s.filesWithIssues, counts: nonZeroCounts(s.counts) })),
          totals: { files: report.totals.files, files_with_issues: report.totals.filesWithIssues, counts: nonZeroCounts(report.totals.counts) },
        }
        writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`, { mode: 0o600 })
        return { status: 'completed', detail: `${report.totals.filesWithIssues} of ${report.totals.files} file(s) with front matter problems; written to ${file}`, result: { file } }
      },
    },
    {
      name: 'pending-host-work',
      async run(ctx: MigrationContext) {
        const report = ctx.state.get(AUDIT_KEY) as AuditReport | undefined
        if (!report) return skippedWithoutBrain()
        const { nonZeroCounts } = await import('../../../frontmatter/index.js')
        const items: HostWorkItem[] = report.sources
          .filter((s) => s.filesWithIssues > 0 && s.path)
          .map((s) => ({
            id: `v${VERSION}:frontmatter:${s.sourceId}`,
            version: VERSION,
            kind: 'frontmatter_fix',
            command: `brain frontmatter validate ${shellWord(s.path!)} --fix`,
            reason: `${s.filesWithIssues} file(s) in source "${s.sourceId}" have front matter problems; review with --dry-run first.`,
            source_id: s.sourceId,
            source_path: s.path!,
            counts: nonZeroCounts(s.counts),
            created_at: ctx.now().toISOString(),
          }))
        const { added, alreadyPending } = appendHostWork(ctx.home, items)
        return { status: 'completed', detail: `${added} follow-up(s) queued, ${alreadyPending} already pending` }
      },
    },
  ],
}
