/**
 * What an Org file's header says about the file, the way org-roam reads it: the file-level
 * property drawer before the first headline (`:ID:` and `:ROAM_ALIASES:`) and `#+filetags:`.
 * An org-roam link names a file by its ID (`[[id:…][Title]]`), so the ID is one of the page's
 * aliases, which is what links resolve by besides paths and titles.
 */
import { FRONTMATTER_LIMITS } from '../util/index.js'

/** `"Two words" One` → ['Two words', 'One']. */
function quotedWords(value: string): string[] {
  return Array.from(value.matchAll(/"([^"]*)"|(\S+)/g), (m) => (m[1] ?? m[2]!).trim()).filter((word) => word !== '')
}

/** `:a:b:` as org writes file tags, or words separated by spaces or commas. */
function fileTags(value: string): string[] {
  return value
    .split(/[:\s,]+/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
}

/**
 * The front matter an Org file's header gives: `id`, `aliases` and `tags`, each only when present.
 * Only as much of the file is read as front matter may be long (`FRONTMATTER_LIMITS.maxBytes`).
 */
export function orgHeaderFrontmatter(text: string): Record<string, unknown> {
  let aliases: string[] = []
  let tags: string[] = []
  let id: string | null = null
  let inDrawer = false
  for (const line of text.slice(0, FRONTMATTER_LIMITS.maxBytes).split('\n', 400)) {
    const trimmed = line.trim()
    if (/^\*+\s/.test(line)) break
    if (/^:properties:$/i.test(trimmed)) inDrawer = true
    else if (/^:end:$/i.test(trimmed)) inDrawer = false
    else if (inDrawer) {
      // `(?!\s)` takes the blanks whole: trying fewer of them cannot match and cost the square of
      // a line with many blanks before a line break.
      const m = /^:([\w-]+):\s*(?!\s)(.*)$/.exec(trimmed)
      if (m && m[1]!.toUpperCase() === 'ID' && m[2]!.trim() !== '') id ??= m[2]!.trim()
      if (m && m[1]!.toUpperCase() === 'ROAM_ALIASES') aliases = aliases.concat(quotedWords(m[2]!))
    } else {
      const m = /^#\+filetags:\s*(?!\s)(.*)$/i.exec(trimmed)
      if (m) tags = tags.concat(fileTags(m[1]!))
    }
  }
  const out: Record<string, unknown> = {}
  if (id !== null) out.id = id
  if (id !== null || aliases.length > 0) out.aliases = id === null ? aliases : [id, ...aliases]
  if (tags.length > 0) out.tags = tags
  return out
}
