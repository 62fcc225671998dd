import type { ParseValidationCode, ParseValidationError } from './codes.js'
import { closingInsertIndex, findBlock, joinLines, requoteLine, splitLines } from './block.js'
import { validateFrontmatter, type ValidateOptions } from './validate.js'

export interface FixResult {
  /** The repaired text (equal to the input when nothing could be fixed). */
  text: string
  /** The codes that were repaired. */
  fixed: ParseValidationCode[]
  /** What is still wrong afterwards (the codes `--fix` leaves to a person). */
  remaining: ParseValidationError[]
}

function yamlScalar(value: string): string {
  return /^[A-Za-z0-9._/-]+$/.test(value) ? value : JSON.stringify(value)
}

function closeBlock(lines: string[], eol: string): boolean {
  const block = findBlock(lines)
  if (!block.opened || block.closeIndex !== null) return false
  const at = closingInsertIndex(lines)
  const cr = eol === '\r\n' ? '\r' : ''
  // A file that ends in its YAML (no trailing newline) gets one before the delimiter.
  if (at === lines.length && lines[lines.length - 1] !== '') lines.push(`---${cr}`, '')
  else if (at === lines.length) lines.splice(at - 1, 0, `---${cr}`)
  else lines.splice(at, 0, `---${cr}`)
  return true
}

function requoteBlock(lines: string[]): boolean {
  const block = findBlock(lines)
  if (block.closeIndex === null) return false
  let changed = false
  for (let i = 1; i < block.closeIndex; i++) {
    const fixed = requoteLine(lines[i]!)
    if (fixed !== lines[i]) {
      lines[i] = fixed
      changed = true
    }
  }
  return changed
}

function rewriteSlug(lines: string[], errors: readonly ParseValidationError[], options: ValidateOptions): boolean {
  const mismatch = errors.find((e) => e.code === 'SLUG_MISMATCH')
  if (!mismatch || !options.expected || !('slug' in options.expected)) return false
  const index = mismatch.line - 1
  const line = lines[index]
  if (line === undefined || !/^slug\s*:/.test(line)) return false
  lines[index] = `slug: ${yamlScalar(options.expected.slug)}${line.endsWith('\r') ? '\r' : ''}`
  return true
}

/**
 * Repairs what can be repaired without guessing at meaning: NUL bytes are dropped, a missing
 * closing delimiter is added after the YAML-looking lines, nested quotes are escaped, and a
 * `slug:` that disagrees with the file's path is set to the path's slug.
 */
export function fixFrontmatter(text: string, options: ValidateOptions = {}): FixResult {
  const fixed: ParseValidationCode[] = []
  let current = text
  if (current.includes('\u0000')) {
    current = current.replace(/\u0000/g, '')
    fixed.push('NULL_BYTES')
  }
  const { lines, eol } = splitLines(current)
  if (closeBlock(lines, eol)) fixed.push('MISSING_CLOSE')
  if (requoteBlock(lines)) fixed.push('NESTED_QUOTES')
  current = joinLines(lines)
  if (rewriteSlug(lines, validateFrontmatter(current, options), options)) {
    fixed.push('SLUG_MISMATCH')
    current = joinLines(lines)
  }
  return { text: current, fixed, remaining: validateFrontmatter(current, options) }
}
