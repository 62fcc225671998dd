import { copyFile, realpath, stat, writeFile } from 'node:fs/promises'
import type { ErrorEnvelope } from '../errors/index.js'
import { emptyCounts, lintFindings, lintRuleFor, type LintFinding, type ParseValidationCode, type ParseValidationError } from './codes.js'
import { changedRegion, type LineChange } from './diff.js'
import { fixFrontmatter } from './fix.js'
import { assertFixAllowed } from './guard.js'
import type { PageRoot } from './roots.js'
import { expectationFor, pickedBySync, scanPath, type ScannedFile } from './scan.js'

export interface ValidateRequest {
  targets: { path: string; isDirectory: boolean }[]
  roots: readonly PageRoot[]
  fix: boolean
  dryRun: boolean
}

export interface ReportedError extends ParseValidationError {
  /** The lint rule name; null for MISSING_OPEN, which lint does not report. */
  rule: string | null
}

export interface FileResult {
  path: string
  sourceId: string | null
  expectedSlug: string | null
  errors: ReportedError[]
  /** Codes repaired (or, in a dry run, that would be). */
  fixed: ParseValidationCode[]
  /** What `--fix` could not repair. */
  remaining: ReportedError[]
  backup: string | null
  change: LineChange | null
  readError: ErrorEnvelope | null
  lint: LintFinding[]
}

export interface ValidateReport {
  status: 'ok' | 'issues' | 'fixed' | 'would_fix'
  files: number
  filesWithIssues: number
  counts: Record<ParseValidationCode, number>
  /** Only files with problems, fixes or read errors. */
  results: FileResult[]
  /** Named files that sync would not import as pages (a README, an excluded path). */
  skipped: string[]
}

function withRules(errors: readonly ParseValidationError[]): ReportedError[] {
  return errors.map((e) => ({ ...e, rule: lintRuleFor(e.code) }))
}

async function rewrite(file: ScannedFile, text: string): Promise<string> {
  const backup = `${file.path}.bak`
  const mode = (await stat(file.path)).mode & 0o777
  await copyFile(file.path, backup)
  await writeFile(file.path, text, { mode })
  return backup
}

async function resultFor(file: ScannedFile, request: ValidateRequest): Promise<FileResult> {
  const base: FileResult = {
    path: file.path,
    sourceId: file.sourceId,
    expectedSlug: file.expectedSlug,
    errors: withRules(file.errors),
    fixed: [],
    remaining: withRules(file.errors),
    backup: null,
    change: null,
    readError: file.readError,
    lint: lintFindings(file.errors),
  }
  if (!request.fix || file.text === null || !file.errors.some((e) => e.fixable)) return base
  const { expected } = expectationFor(file.path, request.roots)
  const repaired = fixFrontmatter(file.text, { expected })
  if (repaired.fixed.length === 0) return base
  const change = changedRegion(file.text, repaired.text)
  const backup = request.dryRun ? null : await rewrite(file, repaired.text)
  return { ...base, fixed: repaired.fixed, remaining: withRules(repaired.remaining), backup, change, lint: lintFindings(repaired.remaining) }
}

/**
 * `brain frontmatter validate`: every named file or directory is checked; with `fix`, each file
 * with a repairable problem is copied to `<file>.bak` and rewritten in place (a dry run only
 * says what would change). `fix` refuses, before touching anything, a path outside the sources.
 */
export async function runValidate(request: ValidateRequest): Promise<ValidateReport> {
  // The real path decides: a folder inside a source that links elsewhere must not let --fix out.
  if (request.fix) for (const target of request.targets) assertFixAllowed(await realpath(target.path).catch(() => target.path), request.roots)
  const counts = emptyCounts()
  const results: FileResult[] = []
  const skipped: string[] = []
  let files = 0
  let filesWithIssues = 0
  for (const target of request.targets) {
    if (!target.isDirectory && !pickedBySync(target.path, request.roots)) {
      skipped.push(target.path)
      continue
    }
    for (const file of await scanPath(target, request.roots)) {
      files++
      for (const error of file.errors) counts[error.code]++
      if (file.errors.length > 0) filesWithIssues++
      if (file.errors.length > 0 || file.readError) results.push(await resultFor(file, request))
    }
  }
  const anyFixed = results.some((r) => r.fixed.length > 0)
  const anyRemaining = results.some((r) => r.remaining.length > 0 || r.readError)
  const status = anyRemaining ? 'issues' : anyFixed ? (request.dryRun ? 'would_fix' : 'fixed') : 'ok'
  return { status, files, filesWithIssues, counts, results, skipped }
}
