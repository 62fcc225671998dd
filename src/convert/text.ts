/** Plain text and markdown (a fetched `text/plain` or `text/markdown` response) → one page draft. */
import { ConvertError } from './errors.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

export function convertText(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'text'> {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes).replace(/\r\n/g, '\n').trim()
  if (text === '' || text.includes('\u0000')) throw new ConvertError('convert_unsupported', `${input.name}: no text`)
  const heading = /^#{1,6} +(.+)$/m.exec(text)?.[1]?.trim()
  const firstLine = text.split('\n', 1)[0]!.trim().slice(0, 80)
  const title = heading ?? (firstLine || input.name)
  const frontmatter: Record<string, unknown> = { type: 'web', source_format: 'text' }
  if (input.url !== undefined) frontmatter.url = input.url
  if (input.fetchedAt !== undefined) frontmatter.fetched_at = input.fetchedAt
  const body = heading === undefined ? `# ${title}\n\n${text}\n` : `${text}\n`
  return { format: 'text', drafts: [{ slugHint: title.toLowerCase(), title, frontmatter, body }], counts: {} }
}
