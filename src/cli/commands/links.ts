import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { extractLinksTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

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
    const { progressPrinter } = await import('../job-runner.js')
    const args = checkedArgs(extractLinksTool, { slugs: this.slugs.length > 0 ? this.slugs : undefined })
    const progress = progressPrinter(this.context.stderr, 'extract')
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    let result: Record<string, unknown>
    try {
      result = await this.runOperation(extractLinksTool, args, { onProgress: progress.update, signal: interrupt.signal })
    } finally {
      progress.finish()
      interrupt.dispose()
    }
    await this.present(extractLinksTool, result)
    return 0
  }
}
