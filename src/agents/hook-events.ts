/**
 * What an agent's hook sends and what it may answer, with no I/O and no imports: the hook entry
 * loads this on every prompt, so it stays small.
 */

/** The hook commands brain offers, by harness: our event word → what the brain does and the harness's event name. */
export type HookAction = 'orient' | 'recall' | 'capture'

/** How a harness reads a hook's answer: Claude Code's `hookSpecificOutput`, or Cursor's flat `additional_context`. */
export type HookReplyForm = 'hook-specific' | 'flat'

export interface HookSpec {
  harness: string
  event: string
  action: HookAction
  /** The event name the harness uses, and expects back in `hookSpecificOutput.hookEventName`. */
  eventName: string
  reply: HookReplyForm
  /** The harness is about to compact the conversation: what recall told it is forgotten with it. */
  compacts: boolean
}

interface HookEntry {
  action: HookAction
  eventName: string
  compacts?: boolean
}

const HOOKS: Record<string, { reply: HookReplyForm; events: Record<string, HookEntry> }> = {
  'claude-code': {
    reply: 'hook-specific',
    events: {
      'session-start': { action: 'orient', eventName: 'SessionStart' },
      'user-prompt-submit': { action: 'recall', eventName: 'UserPromptSubmit' },
      'pre-compact': { action: 'capture', eventName: 'PreCompact', compacts: true },
      stop: { action: 'capture', eventName: 'Stop' },
    },
  },
  'gemini-cli': {
    reply: 'hook-specific',
    events: {
      'session-start': { action: 'orient', eventName: 'SessionStart' },
      'user-prompt-submit': { action: 'recall', eventName: 'BeforeAgent' },
    },
  },
  // Codex sends Claude Code's stdin fields and reads the same `hookSpecificOutput` answer.
  codex: {
    reply: 'hook-specific',
    events: {
      'session-start': { action: 'orient', eventName: 'SessionStart' },
      'user-prompt-submit': { action: 'recall', eventName: 'UserPromptSubmit' },
      stop: { action: 'capture', eventName: 'Stop' },
    },
  },
  // Cursor adds context only at session start (`beforeSubmitPrompt` may only let a prompt through or stop it).
  cursor: {
    reply: 'flat',
    events: {
      'session-start': { action: 'orient', eventName: 'sessionStart' },
      stop: { action: 'capture', eventName: 'stop' },
    },
  },
}

export function hookSpec(harness: string | undefined, event: string | undefined): HookSpec | null {
  if (harness === undefined || event === undefined || !Object.hasOwn(HOOKS, harness)) return null
  const { reply, events } = HOOKS[harness]!
  if (!Object.hasOwn(events, event)) return null
  const entry = events[event]!
  return { harness, event, action: entry.action, eventName: entry.eventName, reply, compacts: entry.compacts === true }
}

/** The events a harness's hooks are installed for, in the order they fire. */
export function hookEvents(harness: string): Array<{ event: string; eventName: string }> {
  return Object.entries(HOOKS[harness]?.events ?? {}).map(([event, spec]) => ({ event, eventName: spec.eventName }))
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

/** The first workspace folder of Cursor's input, its working directory. */
function firstRoot(value: unknown): string | null {
  return Array.isArray(value) ? text(value[0]) : null
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
    // Cursor names the conversation `conversation_id` and its folders `workspace_roots`.
    sessionId: text(v.session_id) ?? text(v.conversation_id),
    transcriptPath: text(v.transcript_path),
    cwd: text(v.cwd) ?? firstRoot(v.workspace_roots),
    hookEventName: text(v.hook_event_name),
    prompt: text(v.prompt),
    source: text(v.source),
  }
}

/** Whether a session-start is the new start of a conversation whose context was just compacted. */
export function isCompactedStart(input: HookInput): boolean {
  return input.source === 'compact'
}

/** What the hook prints: the harness's JSON form with context for the model, or nothing at all. */
export function hookReply(spec: Pick<HookSpec, 'eventName' | 'reply'>, context: string | null): string {
  if (context === null || context.trim() === '') return ''
  const answer = spec.reply === 'flat' ? { additional_context: context } : { hookSpecificOutput: { hookEventName: spec.eventName, additionalContext: context } }
  return `${JSON.stringify(answer)}\n`
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

/** A short orientation from `start_session`: what the active source holds and how to reach the brain. */
export function orientationText(start: unknown): string | null {
  const s = start as { pages?: unknown; by_type?: unknown; source_id?: unknown } | null
  if (typeof s?.pages !== 'number') return null
  const source = typeof s.source_id === 'string' && s.source_id !== 'default' ? ` (source \`${s.source_id}\`)` : ''
  if (s.pages === 0) return `The user's brain${source} (a personal knowledge base, MCP server \`brain\`) is empty so far. Record decisions and facts worth keeping with its \`remember\` tool.`
  const types = Array.isArray(s.by_type)
    ? (s.by_type as Array<Record<string, unknown>>).filter((e) => typeof e?.type === 'string' && typeof e?.pages === 'number' && e.pages > 0).map((e) => `${e.pages as number} ${e.type as string}`)
    : []
  const shown = types.length > 8 ? [...types.slice(0, 8), `${types.length - 8} more`] : types
  return [
    `The user's brain${source} (a personal knowledge base, MCP server \`brain\`) holds ${s.pages} ${s.pages === 1 ? 'page' : 'pages'}${shown.length > 0 ? `: ${shown.join(', ')}` : ''}.`,
    'Pages relevant to a prompt are recalled into it automatically. Search for more with its `query` (hybrid) or `search` (keyword) tools and read a page with `get_page`; record decisions and facts worth keeping with `remember`.',
  ].join('\n')
}
