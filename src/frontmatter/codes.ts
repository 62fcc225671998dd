/** The seven `ParseValidationError` codes of a markdown file's front matter. */
export const PARSE_VALIDATION_CODES = ['MISSING_OPEN', 'MISSING_CLOSE', 'YAML_PARSE', 'SLUG_MISMATCH', 'NULL_BYTES', 'NESTED_QUOTES', 'EMPTY_FRONTMATTER'] as const
export type ParseValidationCode = (typeof PARSE_VALIDATION_CODES)[number]

/** What `--fix` repairs; MISSING_OPEN, YAML_PARSE and EMPTY_FRONTMATTER need a person. */
export const FIXABLE_CODES: ReadonlySet<ParseValidationCode> = new Set(['NULL_BYTES', 'MISSING_CLOSE', 'NESTED_QUOTES', 'SLUG_MISMATCH'])

/**
 * Lint rule names. MISSING_OPEN has none: a file without front matter is the older
 * no-frontmatter rule's concern, not a frontmatter lint finding.
 */
export const LINT_RULES: Readonly<Partial<Record<ParseValidationCode, string>>> = Object.freeze({
  MISSING_CLOSE: 'frontmatter-missing-close',
  YAML_PARSE: 'frontmatter-yaml-parse',
  NULL_BYTES: 'frontmatter-null-bytes',
  NESTED_QUOTES: 'frontmatter-nested-quotes',
  SLUG_MISMATCH: 'frontmatter-slug-mismatch',
  EMPTY_FRONTMATTER: 'frontmatter-empty',
})

export interface ParseValidationError {
  code: ParseValidationCode
  /** 1-based line of the file where the problem is. */
  line: number
  message: string
  fixable: boolean
}

export interface LintFinding {
  rule: string
  code: ParseValidationCode
  line: number
  message: string
}

export function lintRuleFor(code: ParseValidationCode): string | null {
  return LINT_RULES[code] ?? null
}

/** The lint report of a file's validation errors (MISSING_OPEN left out). */
export function lintFindings(errors: readonly ParseValidationError[]): LintFinding[] {
  return errors.flatMap((e) => {
    const rule = lintRuleFor(e.code)
    return rule ? [{ rule, code: e.code, line: e.line, message: e.message }] : []
  })
}

export function emptyCounts(): Record<ParseValidationCode, number> {
  return Object.fromEntries(PARSE_VALIDATION_CODES.map((c) => [c, 0])) as Record<ParseValidationCode, number>
}
