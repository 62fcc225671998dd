/**
 * What a Notion export says of its pages besides their markdown: a page's file (and folder) is
 * named after its title and ID, and a database page lists its properties under its title.
 */

/** Notion names each exported page's file (and folder) after its title and its 32-hex-digit ID. */
export const NOTION_EXPORT_NAME = /(^|\/)[^/]+ [0-9a-f]{32}\.md$/i

/**
 * A property line of a Notion export: a short name, `: `, and a value. The name is bounded, so a
 * long line without `: ` is rejected after a few characters.
 */
const NOTION_PROPERTY = /^(\p{L}[\p{L}\p{N} _&/()'.-]{0,39}): (\S.*)$/u

/**
 * The properties a Notion export writes under a database page's `# Title`: the lines after the
 * title's blank line up to the next blank line, each `Name: value`. A single such line could be
 * an ordinary first sentence (`Note: …`), so two are needed; any line of the block that is not a
 * property makes it text.
 */
export function notionPropertyLines(content: string): Array<{ key: string; value: string }> | null {
  const lines = content.replace(/\r\n?/g, '\n').split('\n', 60)
  let at = 0
  while (at < lines.length && lines[at]!.trim() === '') at++
  if (!/^# \S/.test(lines[at] ?? '') || (lines[at + 1] ?? '') !== '') return null
  const entries: Array<{ key: string; value: string }> = []
  for (let i = at + 2; i < lines.length && lines[i] !== ''; i++) {
    const m = NOTION_PROPERTY.exec(lines[i]!)
    if (m === null) return null
    entries.push({ key: m[1]!, value: m[2]!.trim() })
  }
  return entries.length >= 2 ? entries : null
}
