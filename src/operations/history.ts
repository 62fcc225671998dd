import * as z from 'zod'
import { NotFoundError, ValidationError } from '../errors/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation, type Operation } from './operation.js'
import { pageWriteContext, slugText } from './pages.js'

const slug = slugText.describe('Page slug')
const source = z.string().trim().min(1).max(200).optional().describe('Source id; needed only when the slug exists in more than one source')
const versionNumber = z.number().int().min(1).max(2_147_483_647)

interface ShownVersion {
  number: number
  current: boolean
  written_at: Date
  via: string | null
  by: string | null
  bytes: number
  lines_added: number
  lines_removed: number
  content_hash: string
}

/** The page a history command names, its current markdown, and the number that markdown has. */
async function currentState(ctx: CallContext, slugText: string, sourceId: string | undefined) {
  const { findPage, resolvePageRef, serializePage } = await import('../pages/index.js')
  const { latestVersionNumber } = await import('../history/index.js')
  const { db } = await ctx.brain()
  const ref = await resolvePageRef(db, slugText, sourceId)
  const page = (await findPage(db, ref.sourceId, ref.slug))!
  return { db, page, markdown: serializePage(page), number: (await latestVersionNumber(db, page.id)) + 1 }
}

type Current = Awaited<ReturnType<typeof currentState>>

/** The markdown of version `n` of a page: a stored version, or the current content. */
async function versionText(state: Current, n: number): Promise<{ markdown: string; current: boolean }> {
  if (n === state.number) return { markdown: state.markdown, current: true }
  const { findVersion } = await import('../history/index.js')
  const version = await findVersion(state.db, state.page.id, n)
  if (!version) {
    throw new NotFoundError('version_not_found', `${state.page.slug} has no version ${n}; its versions are 1 to ${state.number}.`, { hint: `See them with \`brain history ${state.page.slug}\`.` })
  }
  const { serializePage } = await import('../pages/index.js')
  return { markdown: serializePage(version.content), current: false }
}

/** A version as presenters receive it: the tool's JSON, keys in camelCase. */
interface PresentedVersion {
  number: number
  current: boolean
  writtenAt: string
  via: string | null
  by: string | null
  bytes: number
  linesAdded: number
  linesRemoved: number
}

function formatVersions(result: object): string {
  const { versions, total } = result as { versions: PresentedVersion[]; total: number }
  const more = total > versions.length ? `\n(${total - versions.length} older versions; --limit ${total} shows them all)` : ''
  return (
    versions
      .map((v) => {
        const when = String(v.writtenAt).replace('T', ' ').slice(0, 19)
        return `${String(v.number).padStart(4)}  ${when}  ${(v.via ?? '-').padEnd(14)} ${(v.by ?? '-').padEnd(12)} ${String(v.bytes).padStart(8)} B  +${v.linesAdded} -${v.linesRemoved}${v.current ? '  (current)' : ''}`
      })
      .join('\n') + more
  )
}

export const listVersionsTool = defineOperation({
  name: 'list_versions',
  description:
    'The history of a page, newest first: every earlier content it had, numbered, with when it was written, through what (put_page, sync, revert, …), by which token, its size and the lines it added and removed. The first entry is the current content. Use get_version to read one, revert_page to go back to one.',
  input: z.strictObject({ slug, source, limit: z.number().int().min(1).max(10_000).optional().describe('At most this many versions, newest first (default 50)') }),
  mutating: false,
  async run(ctx, args) {
    const { listVersions } = await import('../history/index.js')
    const state = await currentState(ctx, args.slug, args.source)
    const { page } = state
    const current: ShownVersion = {
      number: state.number,
      current: true,
      written_at: page.updatedAt,
      via: page.writtenVia ?? page.ingestedVia,
      by: page.writtenBy,
      bytes: Buffer.byteLength(page.compiledTruth, 'utf8') + Buffer.byteLength(page.timeline, 'utf8'),
      lines_added: page.linesAdded ?? 0,
      lines_removed: page.linesRemoved ?? 0,
      content_hash: page.contentHash,
    }
    const limit = args.limit ?? 50
    const stored = limit > 1 ? await listVersions(state.db, page.id, limit - 1) : []
    const versions = [
      current,
      ...stored.map((v): ShownVersion => ({
        number: v.number,
        current: false,
        written_at: v.writtenAt,
        via: v.writtenVia,
        by: v.writtenBy,
        bytes: v.bytes,
        lines_added: v.linesAdded,
        lines_removed: v.linesRemoved,
        content_hash: v.contentHash,
      })),
    ]
    return { slug: page.slug, source_id: page.sourceId, page_id: page.id, total: state.number, versions }
  },
  present: { text: formatVersions },
  cli: {
    path: ['history'],
    description: "A page's versions, newest first (number, when, via, who, size, lines added/removed)",
    examples: [['Show the history of a note', '$0 history notes/idea']],
    positional: { field: 'slug', required: true },
    options: [
      { field: 'source', flag: '--source', kind: 'string', description: 'Source id; needed only when the slug exists in more than one source' },
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many versions, newest first (default 50)' },
    ],
    integerErrorPrefix: 'history_',
  },
})

export const getVersionTool = defineOperation({
  name: 'get_version',
  description: 'Read one version of a page as markdown (front matter included), by the number list_versions shows. The highest number is the current content.',
  input: z.strictObject({ slug, version: versionNumber.describe('Version number'), source }),
  mutating: false,
  async run(ctx, args) {
    const state = await currentState(ctx, args.slug, args.source)
    const found = await versionText(state, args.version)
    return { slug: state.page.slug, source_id: state.page.sourceId, version: args.version, current: found.current, markdown: found.markdown }
  },
  present: { text: (result) => result.markdown },
})

export const diffVersionsTool = defineOperation({
  name: 'diff_versions',
  description:
    'A unified diff between two versions of a page. With no numbers: the newest earlier version against the current content; with `from` only: that version against the current content; with both: `from` against `to`.',
  input: z.strictObject({ slug, from: versionNumber.optional(), to: versionNumber.optional(), source }),
  mutating: false,
  async run(ctx, args) {
    const { lineChanges, unifiedDiff } = await import('../history/index.js')
    const state = await currentState(ctx, args.slug, args.source)
    const to = args.to ?? state.number
    const from = args.from ?? Math.max(1, state.number - 1)
    const before = await versionText(state, from)
    const after = await versionText(state, to)
    const label = (n: number, current: boolean) => `${state.page.slug}@${n}${current ? ' (current)' : ''}`
    const changes = lineChanges(before.markdown, after.markdown)
    const diff = from === to || before.markdown === after.markdown ? '' : unifiedDiff(before.markdown, after.markdown, label(from, before.current), label(to, after.current))
    return { slug: state.page.slug, source_id: state.page.sourceId, from, to, lines_added: changes.added, lines_removed: changes.removed, diff }
  },
  present: { text: (result) => (result.diff === '' ? `No differences between versions ${result.from} and ${result.to} of ${result.slug}.` : result.diff.trimEnd()) },
})

const revertPageTool = defineOperation({
  name: 'revert_page',
  description:
    'Bring back an earlier version of a page: its content becomes the current content, as a new version (history is never rewritten, so a revert can itself be reverted). Returns the write result and reverted_to.',
  input: z.strictObject({ slug, to: versionNumber.describe('The version number to bring back'), source, no_embed: z.boolean().optional() }),
  mutating: true,
  async run(ctx, args) {
    const state = await currentState(ctx, args.slug, args.source)
    if (state.page.pageKind === 'code') {
      throw new ValidationError('revert_code_page', `${state.page.slug} is a code page; its history lives in git.`, { hint: 'Check the file out at the commit you want and sync.' })
    }
    const target = await versionText(state, args.to)
    const { putPage } = await import('../pages/index.js')
    const written = await putPage(await pageWriteContext(ctx, args.no_embed ?? false), {
      slug: state.page.slug,
      sourceId: state.page.sourceId,
      content: target.markdown,
      writtenVia: ctx.remote ? 'mcp:revert' : 'revert',
    })
    return { ...written, reverted_to: args.to, version: written.status === 'skipped' ? state.number : state.number + 1 }
  },
  present: {
    text: (result) => {
      const r = result as unknown as { status: string; slug: string; revertedTo: number; version: number }
      return r.status === 'skipped' ? `${r.slug} already has the content of version ${r.revertedTo}` : `reverted ${r.slug} to version ${r.revertedTo} (now version ${r.version})`
    },
  },
  cli: {
    path: ['revert'],
    description: 'Bring back an earlier version of a page (as a new version)',
    examples: [['Undo the last change', '$0 revert notes/idea --to 3']],
    positional: { field: 'slug', required: true },
    options: [
      { field: 'to', flag: '--to', kind: 'integer', description: 'The version number to bring back (see `brain history`)' },
      { field: 'source', flag: '--source', kind: 'string', description: 'Source id; needed only when the slug exists in more than one source' },
      { field: 'no_embed', flag: '--no-embed', kind: 'boolean', description: 'Store without computing embeddings' },
    ],
    integerErrorPrefix: 'revert_',
  },
})

export const historyTools: Operation[] = [listVersionsTool, getVersionTool, diffVersionsTool, revertPageTool]
