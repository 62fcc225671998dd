import { defineJob } from '../src/queue/index.js'

/**
 * The autopilot's frontmatter-audit phase: the read-only scan of `brain frontmatter audit`.
 * The result keeps the per-source counts and leaves out the per-file list, so a cycle's stored
 * result stays small; `brain frontmatter audit --json` lists the files.
 */
export default defineJob({
  name: 'frontmatter-audit',
  run: async (ctx) => {
    const { auditSources, loadPageRoots, nonZeroCounts } = await import('../src/frontmatter/index.js')
    const { listSources, requireSource } = await import('../src/intake/sources/source-repository.js')
    const sourceId = ctx.data.sourceId
    const sources = sourceId ? [await requireSource(ctx.db, sourceId)] : await listSources(ctx.db)
    const report = await auditSources(sources, { roots: await loadPageRoots(ctx.db), signal: ctx.signal })
    return {
      files: report.totals.files,
      files_with_issues: report.totals.filesWithIssues,
      counts: nonZeroCounts(report.totals.counts),
      sources: report.sources.map((s) => ({ source_id: s.sourceId, status: s.status, files: s.files, files_with_issues: s.filesWithIssues, counts: nonZeroCounts(s.counts) })),
    }
  },
})
