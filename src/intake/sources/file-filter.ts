import { isCodePath } from '../../chunking/index.js'
import { UsageError } from '../../errors/index.js'
import { isNoteFileName } from '../../pages/index.js'
import { compileGlobs } from './glob.js'

export type SyncStrategy = 'markdown' | 'code' | 'auto'
export type FileKind = 'markdown' | 'code'

export const SYNC_STRATEGIES: readonly SyncStrategy[] = ['markdown', 'code', 'auto']

/** The strategy named by a flag, job data or config value; anything else is a usage error. */
export function parseSyncStrategy(value: unknown): SyncStrategy {
  if (SYNC_STRATEGIES.includes(value as SyncStrategy)) return value as SyncStrategy
  throw new UsageError('invalid_strategy', `Unknown strategy "${String(value)}".`, { hint: 'Use markdown, code or auto.' })
}

/** Files over this size are skipped (recorded, not imported). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024

const README = /^readme(\.[a-z]+)?$/i
/** Markdown sync never reads these folders: raw captures and operational notes. */
const MARKDOWN_EXCLUDED_DIRS = new Set(['.raw', 'ops'])
/** Dependency, build and cache folders: generated or vendored, never the user's own writing. */
const SKIPPED_DIRS = new Set(['node_modules', 'bower_components', 'vendor', 'dist', 'build', 'target', 'coverage', '__pycache__', 'venv', 'site-packages'])
const GENERATED_FILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'composer.lock', 'cargo.lock', 'poetry.lock', 'gemfile.lock'])

/** Scripts and stylesheets, the code that is shipped minified or generated as one long line. */
const MINIFIABLE_EXT = /\.(?:[cm]?js|css)$/i
/**
 * Lines of a script or stylesheet that average more characters than this are minified or
 * generated (a bundle, a documentation site's search index), not code anyone reads or searches:
 * the threshold GitHub's language statistics use for the same question.
 */
const MINIFIED_AVERAGE_LINE = 110
/** Below this size a file is left alone: a short one-line module is written by hand. */
const MINIFIED_MIN_BYTES = 1000

/** Whether a file imported as code is a minified or generated script or stylesheet. */
export function isMinifiedCode(relativePath: string, content: string): boolean {
  if (!MINIFIABLE_EXT.test(relativePath) || content.length < MINIFIED_MIN_BYTES) return false
  let lines = 1
  for (let at = content.indexOf('\n'); at !== -1; at = content.indexOf('\n', at + 1)) lines++
  return content.length / lines > MINIFIED_AVERAGE_LINE
}

export interface FileFilterOptions {
  strategy: SyncStrategy
  include?: readonly string[]
  exclude?: readonly string[]
}

export interface FileFilter {
  /** Whether to descend into a directory (relative path, no trailing slash). */
  enterDirectory(relativeDir: string): boolean
  /** The kind a file is imported as, or null when the strategy or globs leave it out. */
  kindOf(relativePath: string): FileKind | null
}

function segments(relativePath: string): string[] {
  return relativePath.split('/')
}

/** The one file filter of sync, import, the cost preview and `frontmatter validate`. */
export function createFileFilter(options: FileFilterOptions): FileFilter {
  const include = compileGlobs(options.include ?? [])
  const exclude = compileGlobs(options.exclude ?? [])
  const wantsMarkdown = options.strategy !== 'code'
  const wantsCode = options.strategy !== 'markdown'
  return {
    enterDirectory(relativeDir) {
      const name = relativeDir.slice(relativeDir.lastIndexOf('/') + 1)
      if (name.startsWith('.')) return false
      if (SKIPPED_DIRS.has(name.toLowerCase())) return false
      if (!wantsCode && MARKDOWN_EXCLUDED_DIRS.has(name)) return false
      return !(exclude.matches(relativeDir) || exclude.matches(`${relativeDir}/`))
    },
    kindOf(relativePath) {
      const parts = segments(relativePath)
      const name = parts[parts.length - 1]!
      if (name.startsWith('.')) return null
      if (!include.empty && !include.matches(relativePath)) return null
      if (exclude.matches(relativePath)) return null
      if (isNoteFileName(name)) {
        if (!wantsMarkdown || README.test(name)) return null
        if (parts.slice(0, -1).some((d) => MARKDOWN_EXCLUDED_DIRS.has(d))) return null
        return 'markdown'
      }
      if (wantsCode && isCodePath(relativePath) && !GENERATED_FILES.has(name.toLowerCase()) && !/\.min\.(js|css)$/i.test(name)) return 'code'
      return null
    },
  }
}
