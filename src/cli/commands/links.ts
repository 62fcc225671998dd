import { Command, Option } from 'clipanion'
import { reconcileText } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'

export class ExtractCommand extends BrainCommand {
  static override paths = [['extract']]
  static override usage = Command.Usage({
    description: 'Derive links for the given pages, or all pages (runs as an `extract` job)',
    details:
      'For a markdown slug: its citation and mention links (and its explicit links, if it has none stored yet). For a code slug: the links of every markdown page citing it (fills the gap when the code arrived after the note). Explicit links of the pages scanned are resolved again.',
    examples: [
      ['Everything', '$0 extract'],
      ['One note and one file', '$0 extract notes/design src/db/open.ts'],
    ],
  })
  slugs = Option.Rest()

  protected async run(): Promise<number> {
    const { runJob } = await import('../job-runner.js')
    const data = this.slugs.length > 0 ? { slugs: this.slugs } : {}
    const result = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'extract', data, 'extract'))) as Parameters<typeof reconcileText>[0]
    this.print(result, () => reconcileText(result))
    return 0
  }
}
