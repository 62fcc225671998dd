/**
 * Languages embedded in markup: `<script>` and `<style>` bodies of Vue and HTML files.
 *
 * Each body is parsed with its own grammar restricted to the body's range of the file
 * (tree-sitter included ranges), so positions stay file-relative. A script or style block
 * that is over the budget is then split into functions and rules like any script file.
 */
import type { Node, Tree } from 'web-tree-sitter'
import { getParser } from './grammar-loader.js'
import { grammarFor, type CodeLanguage } from './languages.js'
import { rulesFor, type LanguageRules } from './rules/index.js'
import { parseFailed, parseWithinBudget } from './syntax.js'

interface EmbeddedRegion {
  readonly rules: LanguageRules
  readonly nodes: Node[]
}

/** Embedded regions keyed by the start index of the raw_text node they replace. */
export type EmbeddedRegions = ReadonlyMap<number, EmbeddedRegion>

const HOSTS: ReadonlySet<CodeLanguage> = new Set(['vue', 'html'])

function attributes(element: Node): Map<string, string> {
  const out = new Map<string, string>()
  const start = element.namedChildren.find((c) => c.type === 'start_tag')
  for (const attribute of start?.namedChildren ?? []) {
    if (attribute.type !== 'attribute') continue
    const name = attribute.namedChildren.find((c) => c.type === 'attribute_name')?.text.toLowerCase()
    const value = attribute.namedChildren.find((c) => c.type !== 'attribute_name')?.text ?? ''
    if (name !== undefined)
      out.set(
        name,
        value
          .replace(/^["']|["']$/g, '')
          .trim()
          .toLowerCase(),
      )
  }
  return out
}

const SCRIPT_LANGS: Readonly<Record<string, CodeLanguage>> = { ts: 'typescript', tsx: 'tsx', js: 'javascript', jsx: 'javascript' }
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript'])

/** The grammar for a script or style element, or null when it holds something else. */
function embeddedLanguage(element: Node): CodeLanguage | null {
  const attrs = attributes(element)
  if (element.type === 'style_element') return (attrs.get('lang') ?? 'css') === 'css' ? 'css' : null
  const lang = attrs.get('lang')
  if (lang !== undefined) return SCRIPT_LANGS[lang] ?? null
  return SCRIPT_TYPES.has(attrs.get('type') ?? '') ? 'javascript' : null
}

/**
 * Parses the script and style bodies of a Vue or HTML tree. The returned trees must be
 * deleted by the caller once the walk is over.
 */
export async function parseEmbedded(host: CodeLanguage, root: Node, content: string): Promise<{ regions: EmbeddedRegions; trees: Tree[] }> {
  const regions = new Map<number, EmbeddedRegion>()
  const trees: Tree[] = []
  if (!HOSTS.has(host)) return { regions, trees }
  for (const element of root.descendantsOfType(['script_element', 'style_element'])) {
    const raw = element.namedChildren.find((c) => c.type === 'raw_text')
    const lang = embeddedLanguage(element)
    if (raw === undefined || lang === null) continue
    const parser = await getParser(grammarFor(lang, ''))
    const range = { startIndex: raw.startIndex, endIndex: raw.endIndex, startPosition: raw.startPosition, endPosition: raw.endPosition }
    const tree = parseWithinBudget(parser, content, { includedRanges: [range] })
    if (tree === null) continue
    trees.push(tree)
    if (!parseFailed(tree.rootNode)) regions.set(raw.startIndex, { rules: rulesFor(lang), nodes: tree.rootNode.namedChildren })
  }
  return { regions, trees }
}

/** The embedded region inside an element, if its body was parsed. */
export function regionOf(regions: EmbeddedRegions | undefined, element: Node): EmbeddedRegion | null {
  if (regions === undefined || regions.size === 0) return null
  for (const child of element.namedChildren) {
    if (child.type !== 'raw_text') continue
    const region = regions.get(child.startIndex)
    if (region !== undefined) return region
  }
  return null
}
