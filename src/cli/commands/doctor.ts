import { Command } from 'clipanion'
import type { DoctorReport } from '../../doctor/index.js'
import { BrainCommand } from '../brain-command.js'

const LABEL = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const

function describe(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length))
  const lines = report.checks.map((c) => `${LABEL[c.status]}  ${c.name.padEnd(width)}  ${c.message}`)
  return [...lines, `brain doctor: ${report.status}`].join('\n')
}

export class DoctorCommand extends BrainCommand {
  static override paths = [['doctor']]
  static override usage = Command.Usage({
    description: 'Check the brain\'s health: database, schema, pgvector, embeddings, queue, service or lock, sources, version migrations',
    details: [
      'Each check reports ok, warn or fail with a message that says what to do; the overall status is the worst of them. Exit code 1 when any check fails.',
      'The database is tried once, without connect retries, so an unreachable server is reported at once.',
    ].join('\n\n'),
    examples: [['Check', '$0 doctor'], ['For an agent', '$0 doctor --json']],
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
    this.print(report, () => describe(report))
    return report.status === 'fail' ? 1 : 0
  }
}
