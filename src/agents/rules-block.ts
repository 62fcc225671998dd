/**
 * The instructions block brain keeps in an agent's rules file (CLAUDE.md, AGENTS.md, GEMINI.md):
 * delimited by markers, so a later install replaces it and an uninstall removes it, leaving the
 * rest of the file as it was.
 */
export const BLOCK_BEGIN = '<!-- brain:begin (managed by `brain agents install`; edits inside are replaced) -->'
export const BLOCK_END = '<!-- brain:end -->'

const BEGIN_PREFIX = '<!-- brain:begin'

/** What the agent is told: when to recall and when to remember, in a few lines. */
export function instructions(hooked: boolean): string {
  return [
    '## Memory: the brain',
    '',
    "The `brain` MCP server is the user's personal knowledge base (notes, people, projects, decisions, code).",
    hooked
      ? '- Pages relevant to each prompt are recalled into it automatically; call `recall` (with the conversation turn as `text`) when the context shifts to a person, project or identifier not recalled yet.'
      : '- At the start of a task and whenever a person, project, company or code identifier comes up, call `recall` with the turn as `text` (and a stable `session_id`) before answering.',
    '- When the user decides something, states a lasting fact or preference, or a task ends with an outcome worth keeping, call `remember` with one dated sentence (name the pages it is about in `about` when you know them).',
    '- Use `query` or `search` to look further, and `get_page` to read a page; cite pages by slug.',
  ].join('\n')
}

function locate(text: string): { from: number; to: number } | null {
  const from = text.indexOf(BEGIN_PREFIX)
  if (from === -1) return null
  const endAt = text.indexOf(BLOCK_END, from)
  if (endAt === -1) return null
  let to = endAt + BLOCK_END.length
  if (text[to] === '\n') to++
  return { from, to }
}

/** The file with the block set to `body` (or removed when null); other text unchanged. */
export function editRulesBlock(text: string | null, body: string | null): string {
  const source = text ?? ''
  const block = body === null ? '' : `${BLOCK_BEGIN}\n${body.trimEnd()}\n${BLOCK_END}\n`
  const found = locate(source)
  if (found !== null) {
    if (body !== null) return source.slice(0, found.from) + block + source.slice(found.to)
    let from = found.from
    let to = found.to
    // Take the blank line that set the block apart, so install then uninstall gives the file back.
    if (source.slice(0, from).endsWith('\n\n')) from--
    else if (source.slice(to).startsWith('\n')) to++
    return source.slice(0, from) + source.slice(to)
  }
  if (body === null) return source
  if (source.trim() === '') return block
  const base = source.endsWith('\n') ? source : `${source}\n`
  return `${base}\n${block}`
}
