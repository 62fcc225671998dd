import { Command, Option } from 'clipanion'
import type { SearchOptions, SearchResponse } from '../../search/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

function wholeNumber(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isInteger(value)) {
    throw new UsageError(`invalid_${flag}`, `--${flag} must be a whole number, not "${raw}".`)
  }
  return value
}

/** `[score] slug -- snippet`, one line per result; `No results.` when there are none. */
export function formatResults(response: SearchResponse): string {
  if (response.results.length === 0) return 'No results.'
  return response.results.map((r) => `[${r.score.toFixed(4)}] ${r.slug} -- ${r.snippet}`).join('\n')
}

abstract class SearchLikeCommand extends BrainCommand {
  words = Option.Rest({ required: 1 })
  limit = Option.String('--limit', { description: 'Results per call, 1–100 (default 10)' })
  offset = Option.String('--offset', { description: 'Results to skip, 0–1000 (default 0)' })
  detail = Option.String('--detail', { description: 'low, medium (default) or high; high turns the source boost off' })
  lang = Option.String('--lang', { description: 'Only code chunks of this language (typescript, ts, python, …)' })
  symbolKind = Option.String('--symbol-kind', { description: 'Only chunks of this symbol type (function, class, …)' })
  source = Option.String('--source', { description: 'Only pages of this source id' })
  nearSymbol = Option.String('--near-symbol', { description: 'Boost results near this symbol in the call graph' })
  walkDepth = Option.String('--walk-depth', { description: 'Call-graph hops from --near-symbol that earn a boost, 0–3 (default 1)' })

  protected options(): SearchOptions {
    return {
      limit: wholeNumber('limit', this.limit),
      offset: wholeNumber('offset', this.offset),
      detail: this.detail,
      language: this.lang,
      symbolKind: this.symbolKind,
      sourceId: this.source,
      nearSymbol: this.nearSymbol,
      walkDepth: wholeNumber('walk_depth', this.walkDepth),
    }
  }

  protected report(response: SearchResponse): void {
    if (response.notice && !this.jsonMode) this.context.stderr.write(`note: ${response.notice}\n`)
    this.print(response, () => formatResults(response))
  }
}

export class SearchCommand extends SearchLikeCommand {
  static override paths = [['search']]
  static override usage = Command.Usage({
    description: 'Keyword search: full text over chunks, one result per page',
    details:
      'Pages holding any of the words, ranked by BM25 (more and rarer words first, shorter chunks before longer ones) times the source boost of the page\'s slug prefix; one result per page. Web-search syntax: "exact phrase" must match, -word and -"phrase" must not, word* matches a prefix.\n\nPages under test/, archive/, attachments/, .raw/ and BRAIN_SEARCH_EXCLUDE (comma-separated slug prefixes) are never returned. BRAIN_SOURCE_BOOST overrides the boosts as comma-separated prefix:factor entries, e.g. "projects/:1.3,scratch/:0.2"; factor 0 ranks a prefix last, a negative factor is an error. --detail high turns the boost off.',
    examples: [
      ['Find notes', '$0 search postgres vacuum'],
      ['Only TypeScript functions', '$0 search --lang ts --symbol-kind function "open database"'],
    ],
  })

  protected async run(): Promise<number> {
    const { search, searchContext } = await import('../../search/index.js')
    const response = await this.withBrain(({ db, config }) => search(searchContext(db, config), this.words.join(' '), this.options()))
    this.report(response)
    return 0
  }
}

export class QueryCommand extends SearchLikeCommand {
  static override paths = [['query']]
  static override usage = Command.Usage({
    description: 'Hybrid search: keyword (BM25) and vector results fused into one ranking',
    details:
      'The question is embedded with the configured provider and matched against chunk embeddings of that model, and its words are matched as in `brain search` (any word); the two lists are fused, three quarters keyword score, one quarter vector similarity. When no chunk has an embedding of the active model, or the question cannot be embedded, it runs keyword-only and says so.',
    examples: [['Ask a question', '$0 query "how did we decide on the storage engine?"']],
  })

  protected async run(): Promise<number> {
    const { query, searchContext } = await import('../../search/index.js')
    const response = await this.withBrain(({ db, config }) => query(searchContext(db, config), this.words.join(' '), this.options()))
    this.report(response)
    return 0
  }
}
