import * as z from 'zod'
import { UsageError } from '../errors/index.js'
import type { CostPreview, SourceSyncResult, SyncAllResult, SyncRequest } from '../intake/sync/index.js'
import type { JsonCamelCased } from '../util/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation } from './operation.js'

/** Result keys in reading order; the queue stores results as jsonb, which sorts keys by length. */
const SOURCE_KEYS = [
  'status',
  'sourceId',
  'repo',
  'bookmarkScope',
  'mode',
  'fullWalkReason',
  'fromCommit',
  'toCommit',
  'added',
  'modified',
  'deleted',
  'renamed',
  'skipped',
  'failed',
  'ignored',
  'failures',
  'pendingFailures',
  'embedded',
  'embedError',
  'touchedSlugs',
  'deletedSlugs',
  'chunkerVersion',
  'durationMs',
]
const ALL_KEYS = ['status', 'all', 'added', 'modified', 'deleted', 'renamed', 'skipped', 'failed', 'ignored', 'sources', 'skippedSources', 'errors', 'touchedSlugs', 'durationMs']

type SourceShown = JsonCamelCased<SourceSyncResult>
type AllShown = JsonCamelCased<SyncAllResult>
type PreviewShown = { status: 'preview'; preview: JsonCamelCased<CostPreview> }
type Shown = SourceShown | AllShown | PreviewShown

function ordered(value: object, keys: readonly string[]): Record<string, unknown> {
  const entries = Object.entries(value)
  const rank = (key: string): number => (keys.includes(key) ? keys.indexOf(key) : keys.length)
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)))
}

/** The result in reading order, without `slugs` (the autopilot's alias of touchedSlugs). */
function presentable(result: Shown): Record<string, unknown> {
  const { slugs: _slugs, ...rest } = result as Shown & { slugs?: unknown }
  if (!('all' in result)) return ordered(rest, SOURCE_KEYS)
  return { ...ordered(rest, ALL_KEYS), sources: result.sources.map((s) => ordered(s, SOURCE_KEYS)) }
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 10) : '(none)'
}

function describeSource(r: SourceShown): string[] {
  if (r.status === 'up_to_date') {
    const pending = r.pendingFailures.length > 0 ? `; ${r.pendingFailures.length} file(s) still failing (fix them, commit, sync again)` : ''
    return [`${r.sourceId}: up to date at ${short(r.toCommit)}${pending}`]
  }
  const how = r.mode === 'full' ? `full walk (${r.fullWalkReason})` : `${short(r.fromCommit)}..${short(r.toCommit)}`
  const verb = r.status === 'dry_run' ? 'would sync' : 'synced'
  const lines = [
    `${r.sourceId}: ${verb} ${how}: ${r.added} added, ${r.modified} modified, ${r.deleted} deleted, ${r.renamed} renamed, ${r.skipped} unchanged, ${r.failed} failed` +
      (r.status === 'synced' ? `; ${r.embedded} chunks embedded` : ''),
  ]
  for (const failure of r.failures) lines.push(`  failed ${failure.path}: ${failure.message}`)
  if (r.embedError) lines.push(`  embeddings stopped: ${r.embedError.message} (the pages are stored; run \`brain embed --stale\` later)`)
  return lines
}

async function describe(result: Shown): Promise<string> {
  if (result.status === 'preview') {
    const { formatPreview } = await import('../intake/sync/index.js')
    return formatPreview((result as PreviewShown).preview)
  }
  if (!('all' in result)) return describeSource(result as SourceShown).join('\n')
  const lines = result.sources.flatMap(describeSource)
  for (const skipped of result.skippedSources) lines.push(`${skipped.sourceId}: skipped (${skipped.reason === 'sync_disabled' ? 'syncEnabled is false' : 'no local path'})`)
  for (const error of result.errors) lines.push(`${error.sourceId}: not synced: ${error.message}${error.hint ? ` (${error.hint})` : ''}`)
  if (lines.length === 0) lines.push('No sources to sync; add one with `brain sources add <id> --path <dir>`.')
  return lines.join('\n')
}

const input = z.strictObject({
  source: z.string().trim().min(1).max(200).optional().describe('Sync this source (its own bookmark)'),
  all: z.boolean().optional().describe('Sync every source with a local path and syncEnabled not false'),
  repo: z.string().trim().min(1).max(4096).optional().describe("Sync this directory (not over HTTP; the command's default is the configured sync.repo_path)"),
  configured_repo: z.boolean().optional().describe('Sync the directory set as sync.repo_path'),
  full: z.boolean().optional().describe('Walk every file instead of the diff since the bookmark'),
  dry_run: z.boolean().optional().describe('Show what would happen; write nothing'),
  no_embed: z.boolean().optional().describe('Store pages without embeddings (run `brain embed --stale` later)'),
  preview: z.boolean().optional().describe('With all=true: return the cost of embedding every source ({status: "preview", preview}) and sync nothing'),
})

/** The one target the arguments name: a source (with its directory, checked), every source, a directory, or the configured one. */
async function request(ctx: CallContext, args: z.output<typeof input>): Promise<SyncRequest> {
  const sync: SyncRequest = { sourceId: args.source, all: args.all ?? false, repo: args.repo, full: args.full ?? false, dryRun: ctx.dryRun || args.dry_run === true, noEmbed: args.no_embed ?? false }
  const { validateSyncRequest } = await import('../intake/sync/index.js')
  validateSyncRequest(sync)
  const named = args.source !== undefined || args.all === true || args.repo !== undefined
  if (args.configured_repo === true && named) {
    throw new UsageError('sync_conflicting_targets', 'configured_repo syncs the directory set as sync.repo_path; it takes no other target.', {
      hint: 'Give one of source, all=true, repo or configured_repo=true.',
    })
  }
  if (!named && args.configured_repo !== true) {
    throw new UsageError('sync_requires_target', 'Give exactly one of source, all=true, repo or configured_repo=true.', { hint: 'List sources with list_sources.' })
  }
  if (ctx.remote && args.repo !== undefined) {
    throw new UsageError('sync_repo_not_allowed_remotely', 'A directory cannot be synced over HTTP.', { hint: 'Sync a registered source with source, or run `brain sync --repo` on the brain host.' })
  }
  return sync
}

export const syncTool = defineOperation({
  name: 'sync',
  description:
    'Import what changed in git-backed sources since their bookmark (runs a sync job and waits). Give source for one source or all=true for every source; embeddings are computed unless no_embed. Returns the sync result (added, modified, deleted, …); with all and preview, the embedding cost instead.',
  input,
  mutating: true,
  async run(ctx, args): Promise<Record<string, unknown>> {
    const sync = await request(ctx, args)
    const { openQueue } = await import('../queue/index.js')
    const { db, config } = await ctx.brain()
    if (args.preview === true && sync.all === true) {
      const { previewSyncAll } = await import('../intake/sync/index.js')
      return { status: 'preview', preview: await previewSyncAll(db) }
    }
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      const job = await queue.submitAndWait('sync', { ...sync }, { onProgress: ctx.onProgress, signal: ctx.signal })
      const result = job.result
      return result !== null && typeof result === 'object' && !Array.isArray(result) ? { ...(result as Record<string, unknown>) } : { result }
    } finally {
      await queue.close()
    }
  },
  present: { json: (result) => presentable(result as unknown as Shown), text: (result) => describe(result as unknown as Shown) },
})

/** The exit code of a printed sync result: 1 when a source of an all-sources sync failed. */
export function syncExitCode(result: Record<string, unknown>): number {
  return Array.isArray(result.errors) && result.errors.length > 0 ? 1 : 0
}
