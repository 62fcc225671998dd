import { Command, Option } from 'clipanion'
import { NotFoundError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

export class CheckResolvableCommand extends BrainCommand {
  static override paths = [['check-resolvable']]
  static override usage = Command.Usage({
    description: 'Check that every agent skill is reachable from skills/RESOLVER.md and that no trigger routes two ways',
    details:
      'Errors (exit 1): a missing resolver, a row naming a missing file, a skill without name/description/triggers, a duplicate skill name, one trigger routed to two skills. Warnings: a skill no row reaches, triggers of two skills that overlap. skills/migrations/ holds version notes and is not checked for reachability.',
    examples: [
      ['Check the shipped skills', '$0 check-resolvable'],
      ['Check a folder of your own', '$0 check-resolvable --dir ~/my-skills'],
    ],
  })
  dir = Option.String('--dir', { description: 'Skills folder to check (default: the skills/ shipped with brain)' })

  protected async run(): Promise<number> {
    const { existsSync } = await import('node:fs')
    const { join, resolve } = await import('node:path')
    const { packageRoot } = await import('../../util/package-root.js')
    const { checkResolvable } = await import('../../skills/index.js')
    const config = await this.loadConfig()
    const dir = this.dir === undefined ? join(packageRoot(), 'skills') : resolve(this.context.env.PWD ?? config.home, this.dir)
    if (!existsSync(dir)) throw new NotFoundError('skills_dir_not_found', `No skills folder at ${dir}.`, { hint: 'Pass the folder that holds RESOLVER.md with --dir.' })
    const report = checkResolvable(dir)
    this.print(report, () =>
      [
        ...report.findings.map((f) => `${f.level === 'error' ? 'error  ' : 'warning'} ${f.code}: ${f.message}`),
        `${report.skills} skills, ${report.routes} routes: ${report.errors} errors, ${report.warnings} warnings`,
      ].join('\n'),
    )
    return report.errors > 0 ? 1 : 0
  }
}
