import { Command, Option } from 'clipanion'
import type { ReindexProgress } from '../../search/index.js'
import { BrainCommand } from '../brain-command.js'

interface ReindexResult {
  language: string
  pages: number
  chunks: number
}

function formatReindex(result: ReindexResult): string {
  return `Re-indexed ${result.pages} pages and ${result.chunks} chunks with search.language = ${result.language}`
}

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
    const { getSearchLanguage, setSearchLanguage } = await import('../../search/index.js')
    const stderr = this.context.stderr
    const report = (p: ReindexProgress): void => {
      stderr.write(`brain reindex: ${p.table} ${p.done}/${p.total}\n`)
    }
    const result = await this.withBrain(async ({ db }) => setSearchLanguage(db, this.language ?? (await getSearchLanguage(db)), report))
    this.print(result, () => formatReindex(result))
    return 0
  }
}
