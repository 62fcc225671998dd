import { Command, Option } from 'clipanion'
import { NotFoundError } from '../../errors/index.js'
import type { IntegrationStatus, IntegrationTestResult, Recipe, RecipeCatalog, RequirementContext } from '../../integrations/index.js'
import { BrainCommand } from '../brain-command.js'

const STATE_MARK: Record<IntegrationStatus['state'], string> = {
  healthy: '[ok]  ',
  degraded: '[warn]',
  stale: '[warn]',
  failing: '[FAIL]',
  no_heartbeat: '[--]  ',
  missing_requirements: '[--]  ',
}

function describeState(status: IntegrationStatus): string {
  const age = status.heartbeatAgeSeconds
  const ago = age === null ? '' : age < 120 ? ` (${age}s ago)` : age < 7200 ? ` (${Math.round(age / 60)} min ago)` : ` (${Math.round(age / 3600)} h ago)`
  if (status.state === 'missing_requirements')
    return `not set up: ${status.requirements
      .filter((r) => !r.ok)
      .map((r) => r.detail)
      .join('; ')}`
  if (status.state === 'no_heartbeat') return 'ready, no heartbeat yet'
  return `${status.state.replace('_', ' ')}${ago}${status.lastHeartbeat?.message ? `: ${status.lastHeartbeat.message}` : ''}`
}

/** The integrations commands read recipe files and heartbeats only: they never open the database. */
abstract class IntegrationsBase extends BrainCommand {
  protected async setup(): Promise<{ catalog: RecipeCatalog; ctx: RequirementContext }> {
    const config = await this.loadConfig()
    const { join } = await import('node:path')
    const { packageRoot } = await import('../../util/package-root.js')
    const { loadRecipes } = await import('../../integrations/index.js')
    // The shipped recipes, then the user's own, which may replace a shipped one by id.
    const catalog = loadRecipes([join(packageRoot(), 'recipes'), join(config.home, 'integrations', 'recipes')])
    return { catalog, ctx: { env: this.context.env, home: config.home, engine: config.engine.kind } }
  }

  protected findRecipe(catalog: RecipeCatalog, id: string): Recipe {
    const recipe = catalog.recipes.find((r) => r.id === id)
    if (!recipe) {
      throw new NotFoundError('integration_not_found', `No integration ${id}.`, {
        hint: `Known integrations: ${catalog.recipes.map((r) => r.id).join(', ') || 'none'}. List them with \`brain integrations list\`.`,
      })
    }
    return recipe
  }
}

export class IntegrationsDashboardCommand extends IntegrationsBase {
  static override paths = [['integrations']]
  static override usage = Command.Usage({
    description: 'Show every integration by section: infrastructure, senses, reflexes',
    details: 'Reads the recipes and their heartbeats ($BRAIN_HOME/integrations/<id>/heartbeat.jsonl); never connects to the database. Subcommands: list, show <id>, status, doctor, stats, test.',
    examples: [
      ['Dashboard', '$0 integrations'],
      ['One recipe', '$0 integrations show systemd-supervisor'],
    ],
  })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const { CATEGORIES, integrationStatus } = await import('../../integrations/index.js')
    const statuses = catalog.recipes.map((r) => integrationStatus(r, ctx))
    const sections = Object.fromEntries(CATEGORIES.map((c) => [c, statuses.filter((s) => s.category === c)]))
    this.print({ sections, problems: catalog.problems }, () => {
      const lines: string[] = []
      for (const category of CATEGORIES) {
        lines.push(`${category[0]!.toUpperCase()}${category.slice(1)}`)
        const inSection = statuses.filter((s) => s.category === category)
        if (inSection.length === 0) lines.push('  (none)')
        for (const s of inSection) lines.push(`  ${STATE_MARK[s.state]} ${s.id.padEnd(24)} ${describeState(s)}`)
      }
      if (catalog.problems.length > 0) lines.push(`${catalog.problems.length} recipe file(s) have problems: run \`brain integrations doctor\`.`)
      return lines.join('\n')
    })
    return 0
  }
}

export class IntegrationsListCommand extends IntegrationsBase {
  static override paths = [['integrations', 'list']]
  static override usage = Command.Usage({ description: 'List the available integration recipes and what each requires' })

  protected async run(): Promise<number> {
    const { catalog } = await this.setup()
    const rows = catalog.recipes.map((r) => ({ id: r.id, name: r.name, category: r.category, description: r.description, requires: r.requires }))
    this.print(rows, () => (rows.length === 0 ? 'No integrations.' : rows.map((r) => `${r.id.padEnd(24)} ${r.category.padEnd(14)} ${r.name}`).join('\n')))
    return 0
  }
}

export class IntegrationsShowCommand extends IntegrationsBase {
  static override paths = [['integrations', 'show']]
  static override usage = Command.Usage({ description: 'Show one recipe: its requirements, their state, its last heartbeat and its instructions' })
  id = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const recipe = this.findRecipe(catalog, this.id)
    const { integrationStatus } = await import('../../integrations/index.js')
    const status = integrationStatus(recipe, ctx)
    const shown = { id: recipe.id, name: recipe.name, category: recipe.category, description: recipe.description, requires: recipe.requires, file: recipe.file, status, instructions: recipe.body }
    this.print(shown, () =>
      [
        `${recipe.name} (${recipe.id}, ${recipe.category})`,
        recipe.description,
        `status: ${describeState(status)}`,
        ...(status.requirements.length === 0 ? ['requires: nothing'] : status.requirements.map((r) => `requires ${r.requirement}: ${r.ok ? 'ok' : 'MISSING'} (${r.detail})`)),
        '',
        recipe.body,
      ].join('\n'),
    )
    return 0
  }
}

export class IntegrationsStatusCommand extends IntegrationsBase {
  static override paths = [['integrations', 'status']]
  static override usage = Command.Usage({ description: "Each integration's state from its requirements and latest heartbeat" })
  id = Option.String({ required: false })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const { integrationStatus } = await import('../../integrations/index.js')
    const recipes = this.id === undefined ? catalog.recipes : [this.findRecipe(catalog, this.id)]
    const statuses = recipes.map((r) => integrationStatus(r, ctx))
    this.print(statuses, () => (statuses.length === 0 ? 'No integrations.' : statuses.map((s) => `${STATE_MARK[s.state]} ${s.id.padEnd(24)} ${describeState(s)}`).join('\n')))
    return 0
  }
}

export class IntegrationsDoctorCommand extends IntegrationsBase {
  static override paths = [['integrations', 'doctor']]
  static override usage = Command.Usage({ description: 'Check recipe files, requirements and heartbeats; exits 1 when a check fails' })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const { integrationsDoctor } = await import('../../integrations/index.js')
    const report = integrationsDoctor(catalog, ctx)
    this.print(report, () => [...report.checks.map((c) => `${c.status.padEnd(4)} ${c.name}: ${c.message}`), `overall: ${report.status}`].join('\n'))
    return report.status === 'fail' ? 1 : 0
  }
}

export class IntegrationsStatsCommand extends IntegrationsBase {
  static override paths = [['integrations', 'stats']]
  static override usage = Command.Usage({ description: 'Heartbeat counts per integration (ok, warn, fail) and per section' })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const { CATEGORIES, integrationStats } = await import('../../integrations/index.js')
    const integrations = catalog.recipes.map((r) => integrationStats(r, ctx.home))
    const byCategory = Object.fromEntries(
      CATEGORIES.map((c) => [c, { integrations: integrations.filter((i) => i.category === c).length, heartbeats: integrations.filter((i) => i.category === c).reduce((n, i) => n + i.heartbeats, 0) }]),
    )
    this.print(
      { integrations, byCategory },
      () =>
        integrations.map((i) => `${i.id.padEnd(24)} ${String(i.heartbeats).padStart(5)} beats  ok ${i.ok}  warn ${i.warn}  fail ${i.fail}${i.lastAt ? `  last ${i.lastAt}` : ''}`).join('\n') ||
        'No integrations.',
    )
    return 0
  }
}

export class IntegrationsTestCommand extends IntegrationsBase {
  static override paths = [['integrations', 'test']]
  static override usage = Command.Usage({
    description: "Test integrations now (requirements, then the recipe's check command) and record a heartbeat; exits 1 when one fails",
    examples: [
      ['Test all', '$0 integrations test'],
      ['Test one', '$0 integrations test git-post-commit-sync'],
    ],
  })
  id = Option.String({ required: false })

  protected async run(): Promise<number> {
    const { catalog, ctx } = await this.setup()
    const { testIntegration } = await import('../../integrations/index.js')
    const recipes = this.id === undefined ? catalog.recipes : [this.findRecipe(catalog, this.id)]
    const results: IntegrationTestResult[] = []
    for (const recipe of recipes) results.push(await testIntegration(recipe, ctx))
    this.print(results, () => results.map((r) => `${r.ok ? 'pass' : 'FAIL'} ${r.id}: ${r.heartbeat.message}`).join('\n') || 'No integrations.')
    return results.every((r) => r.ok) ? 0 : 1
  }
}
