import { Command, Option } from 'clipanion'
import type { Database } from '../../db/index.js'
import type { ApplyResult, PlannedVersion } from '../../releases/upgrade/index.js'
import { BrainCommand } from '../brain-command.js'
import { isTerminal } from '../output.js'

function describePlanText(plan: PlannedVersion[]): string {
  const lines = ['Version migrations to run:']
  for (const v of plan) lines.push(`  v${v.version}: ${v.summary}${v.rewritesPages ? ' [rewrites page files]' : ''}`)
  return lines.join('\n')
}

function describeResult(result: ApplyResult): string {
  if (result.status === 'up_to_date') return 'Version migrations: up to date.'
  const lines: string[] = []
  for (const v of result.versions) {
    lines.push(`v${v.version}: ${v.status}`)
    for (const p of v.phases) lines.push(`  ${p.name}: ${p.status}${p.detail ? ` (${p.detail})` : ''}`)
  }
  lines.push(`Ledger: ${result.ledger}; follow-up work: ${result.pendingHostWork}`)
  return lines.join('\n')
}

export class ApplyMigrationsCommand extends BrainCommand {
  static override paths = [['apply-migrations']]
  static override usage = Command.Usage({
    description: 'Run the version migrations this release needs (recorded in $BRAIN_HOME/migrations/completed.jsonl)',
    details: [
      'Each release that needs more than SQL migrations has an orchestrator: its phases run in order, the ledger records `partial` when a run starts or fails and `complete` when it finishes, and follow-up work for agents goes to pending-host-work.jsonl. Versions already complete are not run again.',
      'Page content is never rewritten silently: the plan is shown and must be confirmed. --yes proceeds; --dry-run only prints the plan; on a terminal you are asked; otherwise (a pipe, an agent, --json) the command stops with ConfirmationRequired (exit code 2).',
    ].join('\n\n'),
    examples: [
      ['See what would run', '$0 apply-migrations --dry-run'],
      ['Run without asking', '$0 apply-migrations --yes'],
    ],
  })

  yes = Option.Boolean('--yes', false, { description: 'Run without asking' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Only show the plan' })

  protected async run(): Promise<number> {
    const upgrade = await import('../../releases/upgrade/index.js')
    const { brainIsConfigured, brainIsInUse } = await import('../../frontmatter/index.js')
    const config = await this.loadConfig()
    const plan = upgrade.describePlan(upgrade.pendingOrchestrators(config.home))
    if (plan.length === 0) {
      this.print({ status: 'up_to_date', versions: [] }, () => 'Version migrations: up to date.')
      return 0
    }
    const proceed = await this.confirm(plan)
    if (proceed !== 'proceed') return proceed === 'declined' ? 1 : 0
    const inUse = brainIsConfigured(config) && (await this.withBrain(({ db }) => brainIsInUse(config, db)))
    const withBrain = inUse ? <T>(fn: (db: Database) => Promise<T>) => this.withBrain(({ db }) => fn(db)) : null
    const result = await upgrade.applyMigrations({ home: config.home, config, withBrain })
    this.print(result, () => describeResult(result))
    return result.status === 'failed' ? 1 : 0
  }

  private async confirm(plan: PlannedVersion[]): Promise<'proceed' | 'preview_only' | 'declined'> {
    const { decideGate, isYes } = await import('../../intake/sync/gate.js')
    const stdin = this.context.stdin as NodeJS.ReadableStream & { isTTY?: boolean }
    const decision = decideGate({ yes: this.yes, dryRun: this.dryRun, json: this.jsonMode, interactive: isTerminal(this.context.stdout) && stdin.isTTY === true })
    if (decision === 'proceed') return 'proceed'
    if (decision === 'preview_only') {
      this.print({ status: 'preview', versions: plan }, () => describePlanText(plan))
      return 'preview_only'
    }
    if (decision === 'confirmation_required') {
      const { ConfirmationRequired } = await import('../../errors/index.js')
      throw new ConfirmationRequired(
        'apply_migrations_confirmation_required',
        `${plan.length} version migration(s) to run: ${plan.map((v) => `v${v.version}`).join(', ')}. Confirmation is required.`,
        {
          hint: 'Re-run with --yes to run them, or --dry-run to see the plan.',
        },
      )
    }
    this.context.stderr.write(`${describePlanText(plan)}\n`)
    const answer = await this.askLine('Run them? [y/N] ')
    if (isYes(answer)) return 'proceed'
    this.context.stderr.write('brain: nothing was run.\n')
    return 'declined'
  }
}
