import { Command, Option } from 'clipanion'
import type { Database } from '../../db/index.js'
import type { GateOutcome, SourceSyncResult, SyncAllResult, SyncRequest, SyncResult } from '../../sync/index.js'
import { BrainCommand } from '../brain-command.js'
import { isTerminal } from '../output.js'

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

function ordered(value: object, keys: readonly string[]): Record<string, unknown> {
  const entries = Object.entries(value)
  const rank = (key: string): number => (keys.includes(key) ? keys.indexOf(key) : keys.length)
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)))
}

function presentable(result: SyncResult): Record<string, unknown> {
  const { slugs: _slugs, ...rest } = result as SyncResult & { slugs?: unknown }
  if (!('all' in result)) return ordered(rest, SOURCE_KEYS)
  return { ...ordered(rest, ALL_KEYS), sources: result.sources.map((s) => ordered(s, SOURCE_KEYS)) }
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 10) : '(none)'
}

function describeSource(r: SourceSyncResult): string[] {
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

function describe(result: SyncResult): string {
  if (!('all' in result)) return describeSource(result).join('\n')
  const lines = result.sources.flatMap(describeSource)
  for (const skipped of result.skippedSources) lines.push(`${skipped.sourceId}: skipped (${skipped.reason === 'sync_disabled' ? 'syncEnabled is false' : 'no local path'})`)
  for (const error of result.errors) lines.push(`${error.sourceId}: not synced: ${error.message}${error.hint ? ` (${error.hint})` : ''}`)
  if (lines.length === 0) lines.push('No sources to sync; add one with `brain sources add <id> --path <dir>`.')
  return lines.join('\n')
}

export class SyncCommand extends BrainCommand {
  static override paths = [['sync']]
  static override usage = Command.Usage({
    description: 'Import what changed in git-backed sources since their bookmark (runs as a `sync` job)',
    details: [
      'Pages follow committed content: the first sync walks the tree at HEAD, later ones import what `git diff <bookmark>..HEAD` reports (renames move pages, deletions remove them); uncommitted edits are picked up once committed.',
      "With --source or --all the bookmark is the source's last_commit; with a directory (--repo, or the configured sync.repo_path) it is the bookmark of the source registered for that directory, else the global sync.last_commit.",
      'A file that fails is reported and retried by the next sync. `sync --all` first shows a cost preview of the embeddings and asks: --yes proceeds, --dry-run only prints it, --no-embed skips it.',
    ].join('\n\n'),
    examples: [
      ['Sync the brain repository', '$0 sync --repo ~/brain'],
      ['Sync one source', '$0 sync --source notes'],
      ['Sync every source without asking', '$0 sync --all --yes'],
      ['See what a full re-sync would do', '$0 sync --source notes --full --dry-run'],
    ],
  })

  source = Option.String('--source', { description: 'Sync this source (its own bookmark)' })
  all = Option.Boolean('--all', false, { description: 'Sync every source with a local path and syncEnabled not false' })
  repo = Option.String('--repo', { description: 'Sync this directory (default: the configured sync.repo_path)' })
  full = Option.Boolean('--full', false, { description: 'Walk every file instead of the diff since the bookmark' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Show what would happen; write nothing' })
  yes = Option.Boolean('--yes', false, { description: 'Skip the cost confirmation of --all' })
  noEmbed = Option.Boolean('--no-embed', false, { description: 'Store pages without embeddings (run `brain embed --stale` later)' })

  private request(): SyncRequest {
    return { sourceId: this.source, all: this.all, repo: this.repo, full: this.full, dryRun: this.dryRun, noEmbed: this.noEmbed }
  }

  protected async run(): Promise<number> {
    const request = this.request()
    const { validateSyncRequest } = await import('../../sync/index.js')
    validateSyncRequest(request)
    const data = { ...request, repo: request.repo === undefined ? undefined : this.resolvePath(request.repo) }
    const outcome = await this.withBrain(async (brain) => {
      if (request.all && !request.noEmbed) {
        const gate = await this.costGate(brain.db)
        if (gate !== 'proceed') return gate
      }
      const { runJob } = await import('../job-runner.js')
      return (await runJob(brain, this.context.stderr, 'sync', data, 'syncing', this.context.signal)) as SyncResult
    })
    if (outcome === 'preview_only') return 0
    if (outcome === 'declined') {
      this.context.stderr.write('brain: sync cancelled; nothing was changed.\n')
      return 1
    }
    this.print(presentable(outcome), () => describe(outcome))
    return 'all' in outcome && (outcome as SyncAllResult).errors.length > 0 ? 1 : 0
  }

  /** The preview and the gate of `sync --all`; a preview-only run prints the preview as the result. */
  private async costGate(db: Database): Promise<GateOutcome> {
    const { previewSyncAll, runGate, formatPreview } = await import('../../sync/index.js')
    const preview = await previewSyncAll(db)
    const stdin = this.context.stdin as NodeJS.ReadableStream & { isTTY?: boolean }
    const outcome = await runGate(
      preview,
      { yes: this.yes, dryRun: this.dryRun, json: this.jsonMode, interactive: isTerminal(this.context.stdout) && stdin.isTTY === true },
      { show: (text) => this.context.stderr.write(`${text}\n`), prompt: (question) => this.askLine(question) },
    )
    if (outcome === 'preview_only') this.print({ status: 'preview', preview }, () => formatPreview(preview))
    return outcome
  }
}
