/**
 * What an agent's hook sends and what it may answer, with no I/O and no imports: the hook entry
 * loads this on every prompt, so it stays small.
 */

/** The hook commands brain offers, by harness: our event word → what the brain does and the harness's event name. */
export type HookAction = 'orient' | 'recall' | 'capture'

export interface HookSpec {
  harness: string
  event: string
  action: HookAction
  /** The event name the harness uses, and expects back in `hookSpecificOutput.hookEventName`. */
  eventName: string
}

const HOOKS: Record<string, Record<string, { action: HookAction; eventName: string }>> = {
  'claude-code': {
    'session-start': { action: 'orient', eventName: 'SessionStart' },
    'user-prompt-submit': { action: 'recall', eventName: 'UserPromptSubmit' },
    'pre-compact': { action: 'capture', eventName: 'PreCompact' },
    stop: { action: 'capture', eventName: 'Stop' },
  },
  codex: {
    'session-start': { action: 'orient', eventName: 'SessionStart' },
    'user-prompt-submit': { action: 'recall', eventName: 'UserPromptSubmit' },
    stop: { action: 'capture', eventName: 'Stop' },
  },
  'gemini-cli': {
    'session-start': { action: 'orient', eventName: 'SessionStart' },
    'user-prompt-submit': { action: 'recall', eventName: 'BeforeAgent' },
  },
}

export function hookSpec(harness: string | undefined, event: string | undefined): HookSpec | null {
  if (harness === undefined || event === undefined) return null
  const found = Object.hasOwn(HOOKS, harness) && Object.hasOwn(HOOKS[harness]!, event) ? HOOKS[harness]![event]! : null
  return found === null ? null : { harness, event, ...found }
}

/** The events a harness's hooks are installed for, in the order they fire. */
export function hookEvents(harness: string): Array<{ event: string; eventName: string }> {
  return Object.entries(HOOKS[harness] ?? {}).map(([event, spec]) => ({ event, eventName: spec.eventName }))
}

/** The fields of a hook's stdin JSON brain reads; everything else is ignored. */
export interface HookInput {
  sessionId: string | null
  transcriptPath: string | null
  cwd: string | null
  hookEventName: string | null
  prompt: string | null
  source: string | null
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

/** The hook's stdin as brain reads it, or null when it is not a JSON object. */
export function parseHookInput(raw: string): HookInput | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const v = value as Record<string, unknown>
  return {
    sessionId: text(v.session_id),
    transcriptPath: text(v.transcript_path),
    cwd: text(v.cwd),
    hookEventName: text(v.hook_event_name),
    prompt: text(v.prompt),
    source: text(v.source),
  }
}

/** What the hook prints: the harness's JSON form with context for the model, or nothing at all. */
export function hookReply(eventName: string, context: string | null): string {
  if (context === null || context.trim() === '') return ''
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: context } })}\n`
}

interface RecalledPage {
  slug?: unknown
  title?: unknown
  type?: unknown
  reason?: unknown
  excerpt?: unknown
}

/** Whether a title says nothing the slug's last part does not (`Tobiah Marsh` for `people/tobiah-marsh`). */
function titleInSlug(title: string, slug: string): boolean {
  const words = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return words !== '' && slug.toLowerCase().split('/').pop() === words
}

/**
 * A recall result as a few lines of context: one a page (slug, a title the slug does not already
 * say, type) with the first line of its excerpt, further excerpt lines indented under it. Every
 * word here is paid for on every prompt, so why a page was picked stays in the JSON, not here.
 */
export function recallContext(result: unknown): string | null {
  const inject = (result as { inject?: unknown } | null)?.inject
  if (!Array.isArray(inject) || inject.length === 0) return null
  const lines = ["From the user's brain (cite by slug):"]
  for (const item of inject as RecalledPage[]) {
    if (typeof item !== 'object' || item === null || typeof item.slug !== 'string') continue
    const title = typeof item.title === 'string' && item.title !== '' && !titleInSlug(item.title, item.slug) ? ` ${item.title}` : ''
    const type = typeof item.type === 'string' && item.type !== '' ? ` (${item.type})` : ''
    const excerpt = typeof item.excerpt === 'string' ? item.excerpt.trim().split('\n') : []
    const first = excerpt[0] ? `: ${excerpt[0]}` : ''
    lines.push(`- ${item.slug}${title}${type}${first}`)
    for (const line of excerpt.slice(1)) lines.push(`  ${line}`)
  }
  return lines.length > 1 ? lines.join('\n') : null
}

function counts(value: unknown, key: string, most: number): string {
  if (!Array.isArray(value)) return ''
  const entries = (value as Array<Record<string, unknown>>)
    .map((e): [unknown, unknown] => [e?.[key], e?.pages])
    .filter((e): e is [string, number] => typeof e[0] === 'string' && typeof e[1] === 'number' && e[1] > 0)
  const shown = entries.slice(0, most).map(([name, n]) => `${n} ${name}`)
  if (entries.length > most) shown.push(`${entries.length - most} more`)
  return shown.join(', ')
}

/** A short orientation from `brain stats`: what the brain holds and how to reach it. */
export function orientationText(stats: unknown): string | null {
  const s = stats as { pages?: unknown; by_type?: unknown; by_source?: unknown } | null
  if (typeof s?.pages !== 'number') return null
  if (s.pages === 0) return "The user's brain (a personal knowledge base, MCP server `brain`) is empty so far. Record decisions and facts worth keeping with its `remember` tool."
  const types = counts(s.by_type, 'type', 8)
  const sources = counts(s.by_source, 'source_id', 5)
  return [
    `The user's brain (a personal knowledge base, MCP server \`brain\`) holds ${s.pages} ${s.pages === 1 ? 'page' : 'pages'}${types ? `: ${types}` : ''}${sources ? `; sources: ${sources}` : ''}.`,
    'Pages relevant to a prompt are recalled into it automatically. Search for more with its `query` (hybrid) or `search` (keyword) tools and read a page with `get_page`; record decisions and facts worth keeping with `remember`.',
  ].join('\n')
}
