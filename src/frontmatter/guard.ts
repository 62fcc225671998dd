import { ValidationError } from '../errors/index.js'
import { owningRoot, type PageRoot } from './roots.js'

/**
 * `--fix` rewrites files, so it only touches files of a registered source or of the brain
 * directory: a mistyped path must never rewrite someone else's markdown.
 */
export function assertFixAllowed(path: string, roots: readonly PageRoot[]): void {
  if (owningRoot(path, roots)) return
  throw new ValidationError('fix_outside_sources', `${path} is outside every registered source, so --fix will not rewrite it.`, {
    hint: 'Run without --fix to only report, or register the folder first with `brain sources add <id> --path <dir>`.',
  })
}
