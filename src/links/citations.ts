/**
 * Code citations in markdown prose: `<dir>/<path>.<ext>` with an optional `:<line>`, where the
 * first directory is a conventional source folder and the extension a code extension.
 */
import { CODE_EXTENSIONS } from '../chunking/languages.js'

export const CITATION_ROOTS = ['src', 'lib', 'app', 'test', 'tests', 'scripts', 'docs', 'packages', 'internal', 'cmd', 'examples'] as const

export type CitationField = 'compiled_truth' | 'timeline'

export interface CodeCitation {
  /** The cited path, which is also the code page's slug. */
  path: string
  /** The first cited line, when the first citation of this path gave one. */
  line: number | null
  /** Where the path was first cited. */
  field: CitationField
}

const EXTENSIONS = [...CODE_EXTENSIONS].map((e) => e.slice(1)).sort((a, b) => b.length - a.length)
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A path is preceded by a non-path character (so `foo/src/x.ts` is not cited as `src/x.ts`)
 * and not followed by more of a name: `src/a.ts` must not match inside `src/a.tsx` or
 * `src/a.ts.bak`, while a sentence's closing period is fine. Nor by `@` or `+`, which a path
 * holds too: a citation starting after one made a line of many `src/@` cost its square.
 */
const CITATION = new RegExp(`(?<![\\w./@+-])((?:${CITATION_ROOTS.join('|')})/[\\w./@+-]*?\\.(?:${EXTENSIONS.map(escape).join('|')}))(?::(\\d+))?(?![\\w-]|\\.\\w)`, 'g')

/** Citations of one text, each path once, in order of first appearance. */
export function citationsIn(text: string, field: CitationField): CodeCitation[] {
  const out = new Map<string, CodeCitation>()
  if (!text.includes('/')) return []
  for (const match of text.matchAll(CITATION)) {
    const path = match[1]!
    if (path.includes('//') || path.split('/').some((s) => s === '..' || s === '.')) continue
    if (!out.has(path)) out.set(path, { path, line: match[2] === undefined ? null : Number(match[2]), field })
  }
  return [...out.values()]
}

/** A markdown page's citations: compiled_truth first, a path cited in both fields counts once. */
export function pageCitations(compiledTruth: string, timeline: string): CodeCitation[] {
  const seen = new Set<string>()
  const out: CodeCitation[] = []
  for (const citation of [...citationsIn(compiledTruth, 'compiled_truth'), ...citationsIn(timeline, 'timeline')]) {
    if (seen.has(citation.path)) continue
    seen.add(citation.path)
    out.push(citation)
  }
  return out
}
