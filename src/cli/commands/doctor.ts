import { Command } from 'clipanion'
import { doctorText } from '../../operations/operate.js'
import { BrainCommand } from '../brain-command.js'

export class DoctorCommand extends BrainCommand {
  static override paths = [['doctor']]
  static override usage = Command.Usage({
    description: "Check the brain's health: database, schema, pgvector, embeddings, queue, service or lock, sources, version migrations",
    details: [
      'Each check reports ok, warn or fail with a message that says what to do; the overall status is the worst of them. Exit code 1 when any check fails.',
      'The database is tried once, without connect retries, so an unreachable server is reported at once.',
    ].join('\n\n'),
    examples: [
      ['Check', '$0 doctor'],
      ['For an agent', '$0 doctor --json'],
    ],
  })

  protected async run(): Promise<number> {
    const { runDoctor } = await import('../../doctor/index.js')
    const { brainIsConfigured } = await import('../../frontmatter/index.js')
    const { currentVersion } = await import('../../release/index.js')
    const config = await this.loadConfig({ noRetryConnect: true })
    const report = await runDoctor({
      config,
      version: currentVersion(),
      brainConfigured: brainIsConfigured(config),
      withBrain: (fn) => this.withBrain(({ db }) => fn(db), { noRetryConnect: true }),
    })
    this.print(report, () => doctorText(report))
    return report.status === 'fail' ? 1 : 0
  }
}
