/**
 * Front-matter hygiene: validation codes, lint rules, `--fix` (inside registered sources
 * only), the audit over sources and the pre-commit hook. Parsing itself is the bounded reader in
 * src/util/frontmatter-doc.ts.
 * May import: config, db, errors, intake/sources, pages, util.
 */
export { PARSE_VALIDATION_CODES, FIXABLE_CODES, LINT_RULES, lintRuleFor, lintFindings, emptyCounts, type ParseValidationCode, type ParseValidationError, type LintFinding } from './codes.js'
export { validateFrontmatter, slugMismatch, type SlugExpectation, type ValidateOptions } from './validate.js'
export { fixFrontmatter, type FixResult } from './fix.js'
export { loadPageRoots, owningRoot, type PageRoot } from './roots.js'
export { scanPath, scanFile, resolveTarget, expectationFor, pickedBySync, type ScannedFile } from './scan.js'
export { assertFixAllowed } from './guard.js'
export { auditSources, nonZeroCounts, type AuditReport, type SourceAudit, type AuditIssue } from './audit.js'
export { installHook, uninstallHook, hookScript, HOOK_MARKER, type HookAction, type HookResult } from './hook.js'
export { brainIsConfigured, brainIsInUse, noBrainError, requireConfiguredBrain } from './brain-presence.js'
export { changedRegion, type LineChange } from './diff.js'
export { runValidate, type ValidateReport, type ValidateRequest, type FileResult, type ReportedError } from './run-validate.js'
