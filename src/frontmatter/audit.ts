import { createFileFilter, type SourceRecord } from '../intake/sources/index.js'
import { emptyCounts, type ParseValidationCode } from './codes.js'
import { canonicalPath, type PageRoot } from './roots.js'
import { markdownFilesIn, scanFiles } from './scan.js'

export interface AuditIssue {
  path: string
  code: ParseValidationCode
  line: number
}

export interface SourceAudit {
  sourceId: string
  path: string | null
  /** `missing_path`: the directory is gone; `no_path`: the source has no local directory. */
  status: 'scanned' | 'missing_path' | 'no_path'
  files: number
  filesWithIssues: number
  unreadable: number
  counts: Record<ParseValidationCode, number>
  issues: AuditIssue[]
}

export interface AuditReport {
  sources: SourceAudit[]
  totals: { files: number; filesWithIssues: number; counts: Record<ParseValidationCode, number> }
}

function emptyAudit(source: SourceRecord, status: SourceAudit['status']): SourceAudit {
  return { sourceId: source.id, path: source.localPath, status, files: 0, filesWithIssues: 0, unreadable: 0, counts: emptyCounts(), issues: [] }
}

async function auditSource(source: SourceRecord, roots: readonly PageRoot[], signal?: AbortSignal): Promise<SourceAudit> {
  if (!source.localPath) return emptyAudit(source, 'no_path')
  const root = await canonicalPath(source.localPath)
  if (!root) return emptyAudit(source, 'missing_path')
  const audit = { ...emptyAudit(source, 'scanned'), path: root }
  const filter = createFileFilter({ strategy: source.config.strategy, include: source.config.include, exclude: source.config.exclude })
  // Slugs are judged against this source's root even when another source nests inside it.
  const ownRoots = [{ sourceId: source.id, path: root, config: source.config }, ...roots.filter((r) => r.path !== root)]
  for (const scanned of await scanFiles(await markdownFilesIn(root, filter), ownRoots, signal)) {
    const file = scanned.path
    audit.files++
    if (scanned.readError) audit.unreadable++
    if (scanned.errors.length === 0) continue
    audit.filesWithIssues++
    for (const error of scanned.errors) {
      audit.counts[error.code]++
      audit.issues.push({ path: file, code: error.code, line: error.line })
    }
  }
  return audit
}

/** Read-only scan of sources' markdown files: per-source counts by error code. */
export async function auditSources(sources: readonly SourceRecord[], options: { roots?: readonly PageRoot[]; signal?: AbortSignal } = {}): Promise<AuditReport> {
  const audits: SourceAudit[] = []
  for (const source of sources) audits.push(await auditSource(source, options.roots ?? [], options.signal))
  const counts = emptyCounts()
  for (const audit of audits) for (const [code, n] of Object.entries(audit.counts)) counts[code as ParseValidationCode] += n
  return {
    sources: audits,
    totals: { files: audits.reduce((n, a) => n + a.files, 0), filesWithIssues: audits.reduce((n, a) => n + a.filesWithIssues, 0), counts },
  }
}

/** Only the codes that occur, for compact output. */
export function nonZeroCounts(counts: Record<ParseValidationCode, number>): Partial<Record<ParseValidationCode, number>> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))
}
