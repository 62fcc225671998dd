import { Command, Option } from 'clipanion'
import { reindexSearchTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

/** The face of the `reindex_search` operation: a line of progress per batch on stderr. */
export class ReindexCommand extends BrainCommand {
  static override paths = [['reindex']]
  static override usage = Command.Usage({
    description: "Rebuild the keyword search index, optionally switching the brain's search language",
    details: [
      '`--language` sets `search.language` (a PostgreSQL text-search configuration such as english, german, french, simple) and rebuilds every page and chunk vector with it; without it the index is rebuilt with the current language.',
      'Progress goes to stderr. BM25 term statistics are kept exact while the vectors are rewritten.',
    ].join('\n\n'),
    examples: [
      ['Switch to German', '$0 reindex --language german'],
      ['Rebuild', '$0 reindex'],
    ],
  })

  language = Option.String('--language', { description: 'Text-search configuration to use from now on' })

  protected async run(): Promise<number> {
    const stderr = this.context.stderr
    const result = await this.runOperation(reindexSearchTool, checkedArgs(reindexSearchTool, { language: this.language }), {
      onProgress: (p) => stderr.write(`brain reindex: ${p.message ?? ''} ${p.done}/${p.total ?? '?'}\n`),
    })
    await this.present(reindexSearchTool, result)
    return 0
  }
}
