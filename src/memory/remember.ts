/**
 * Records a decision or fact as a dated entry in the timeline of each page it is about, through
 * the normal page write (history, write-through, provenance). The pages are the ones named with
 * `about`, or else the entities the text names, found as recall finds them.
 */
import { NotFoundError, ValidationError } from '../errors/index.js'
import { DEFAULT_SOURCE_ID, findPage, normalizeSlug, putPage, serializePage, type PutPageContext } from '../pages/index.js'
import { KEY_PATTERN, keyedEntry, supersede } from './keyed.js'
import { matchEntities, sourceState } from './names.js'
import { recordVolunteered } from './sessions.js'

const MAX_ENTRY_CHARS = 4000

export interface RememberInput {
  text: string
  about?: readonly string[] | null
  sessionId?: string | null
  harness?: string | null
  sourceId?: string | null
  /** The fact's name: a later fact of the same key on the same page supersedes this one. */
  key?: string | null
  /** When the entry is dated; now by default. */
  now?: Date
}

export interface RememberedPage {
  slug: string
  source_id: string
  title: string
  status: string
  entry: string
  /** The earlier fact of the same key, now closed with "(until <date>)"; null when none. */
  superseded: string | null
}

export interface RememberResult {
  written: RememberedPage[]
  session: string | null
  harness: string | null
}

/** One timeline line: the date, then the text on one line, after its key when it has one. */
function timelineEntry(date: string, text: string, key: string | null): string {
  const oneLine = text.replace(/\s+/g, ' ').trim().slice(0, MAX_ENTRY_CHARS)
  return key === null ? `- **${date}** | ${oneLine}` : keyedEntry(date, key, oneLine)
}

function checkedKey(key: string | null | undefined): string | null {
  if (key === undefined || key === null) return null
  const trimmed = key.trim()
  if (!KEY_PATTERN.test(trimmed)) {
    throw new ValidationError('remember_invalid_key', `The key "${key}" is not a fact's name.`, {
      hint: 'Use up to 60 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.',
    })
  }
  return trimmed
}

/** Who wrote the entry, as history keeps it: the caller, the agent harness and its session. */
function rememberedBy(caller: string | null | undefined, harness: string | null, session: string | null): string {
  return [caller, harness ? `harness=${harness}` : null, session ? `session=${session}` : null].filter((p): p is string => !!p).join(' ')
}

async function targetSlugs(ctx: PutPageContext, input: RememberInput, sourceId: string): Promise<string[]> {
  if (input.about && input.about.length > 0) return [...new Set(input.about.map((s) => normalizeSlug(s)))]
  const matches = matchEntities(input.text, (await sourceState(ctx.db, sourceId)).table)
  if (matches.length === 0) {
    throw new ValidationError('remember_nothing_named', 'The text names no entity of this source, so there is no page to record it on.', {
      hint: 'Name the person, company or project in the text, or pass --about <slug> (about: [slug]).',
    })
  }
  return matches.map((m) => m.entity.slug)
}

export async function remember(ctx: PutPageContext, input: RememberInput): Promise<RememberResult> {
  const sourceId = input.sourceId ?? DEFAULT_SOURCE_ID
  const session = input.sessionId ?? null
  const harness = input.harness ?? null
  if (input.text.trim() === '') throw new ValidationError('remember_empty', 'There is nothing to remember: the text is empty.')
  const key = checkedKey(input.key)
  const slugs = await targetSlugs(ctx, input, sourceId)
  const pages = await Promise.all(slugs.map((slug) => findPage(ctx.db, sourceId, slug)))
  const missing = slugs.filter((_, i) => !pages[i] || pages[i]!.pageKind !== 'markdown')
  if (missing.length > 0) {
    throw new NotFoundError('page_not_found', `No markdown page ${missing.join(', ')} in source ${sourceId}; nothing was written.`, {
      hint: 'Find the slug with list_entities or search, or create the page first.',
    })
  }
  const date = (input.now ?? new Date()).toISOString().slice(0, 10)
  const entry = timelineEntry(date, input.text, key)
  const writeCtx: PutPageContext = { ...ctx, caller: rememberedBy(ctx.caller, harness, session) }
  const written: RememberedPage[] = []
  for (const page of pages) {
    const { timeline, superseded } =
      key === null ? { timeline: page!.timeline.trim() === '' ? entry : `${page!.timeline.trimEnd()}\n${entry}`, superseded: null } : supersede(page!.timeline, entry, date)
    const result = await putPage(writeCtx, {
      slug: page!.slug,
      sourceId,
      content: serializePage({ ...page!, timeline }),
      writtenVia: ctx.remote ? 'mcp:remember' : 'remember',
      expectedContentHash: page!.contentHash,
    })
    written.push({ slug: page!.slug, source_id: sourceId, title: page!.title, status: result.status, entry, superseded })
  }
  // The session that wrote the entry knows it: its own recall does not tell it back.
  if (session !== null && !ctx.dryRun)
    await recordVolunteered(
      ctx.db,
      session,
      sourceId,
      pages.map((p) => String(p!.id)),
    )
  return { written, session, harness }
}
