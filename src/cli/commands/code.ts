import { Command, Option } from 'clipanion'
import type { CodeDefinition, CodeGraphNode, CodeGraphResponse, CodeReference } from '../../code/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

function wholeNumber(command: string, flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isInteger(value)) {
    throw new UsageError(`${command}_invalid_${flag}`, `--${flag} must be a whole number, not "${raw}".`)
  }
  return value
}

function location(r: { file: string | null; startLine: number | null; endLine: number | null }): string {
  if (r.file === null) return '(not in the brain)'
  return r.startLine === null ? r.file : `${r.file}:${r.startLine}-${r.endLine ?? r.startLine}`
}

function firstLine(snippet: string): string {
  return snippet.split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 120) ?? ''
}

export function formatDefinitions(results: readonly CodeDefinition[]): string {
  if (results.length === 0) return 'No definitions.'
  return results.map((r) => `${location(r)}  ${r.symbolType} ${r.symbolNameQualified ?? r.symbolName}\n    ${firstLine(r.snippet)}`).join('\n')
}

export function formatReferences(results: readonly CodeReference[]): string {
  if (results.length === 0) return 'No references.'
  return results.map((r) => `${location(r)}  ${r.symbolName ?? r.symbolType ?? ''}`.trimEnd()).join('\n')
}

function graphLine(node: CodeGraphNode): string {
  const name = node.symbolNameQualified ?? node.symbolName ?? '(top level)'
  const ambiguous = node.candidates > 1 ? ` [one of ${node.candidates} definitions]` : ''
  return `${'  '.repeat(node.depth - 1)}${name}  ${location(node)}  ${node.edgeType}${ambiguous}\n${'  '.repeat(node.depth - 1)}    via ${node.path.join(' → ')}`
}

export function formatGraph(response: CodeGraphResponse): string {
  const lines: string[] = []
  if (response.definitions.length === 0) lines.push(`${response.symbol} is not defined in the brain; matching by name.`)
  if (response.ambiguous) {
    lines.push(`${response.symbol} is ambiguous: ${response.definitions.length} definitions (${response.definitions.map((d) => `${d.file}:${d.startLine}`).join(', ')}); results cover all of them.`)
  }
  if (response.results.length === 0) lines.push(`No ${response.direction}.`)
  else lines.push(...response.results.map(graphLine))
  if (response.truncated) lines.push(`(stopped at ${response.results.length} results; raise --limit)`)
  return lines.join('\n')
}

abstract class CodeLookupCommand extends BrainCommand {
  symbol = Option.String({ required: false })
  lang = Option.String('--lang', { description: 'Only this language (typescript, ts, python, …)' })
  limit = Option.String('--limit', { description: 'Most results (default 20)' })
}

export class CodeDefCommand extends CodeLookupCommand {
  static override paths = [['code-def']]
  static override usage = Command.Usage({
    description: 'Where a symbol is defined: functions, classes, types, … and methods',
    details:
      'Matches definition names exactly. A qualified name (`Queue.submit`, `module.func`, `A::b`) matches that definition only. Ranked by kind (function, class, interface, type, enum, struct, trait, module, contract, export statement, then method), then slug and line.',
    examples: [['Find a function', '$0 code-def importPage'], ['A method', '$0 code-def Queue.submit --lang ts']],
  })

  protected async run(): Promise<number> {
    const { codeDef } = await import('../../code/index.js')
    const query = { symbol: this.symbol ?? '', language: this.lang, limit: wholeNumber('code_def', 'limit', this.limit) }
    const results = await this.withBrain(({ db }) => codeDef(db, query))
    this.print(results, () => formatDefinitions(results))
    return 0
  }
}

export class CodeRefsCommand extends CodeLookupCommand {
  static override paths = [['code-refs']]
  static override usage = Command.Usage({
    description: 'Every code chunk that mentions a symbol (case-insensitive substring)',
    examples: [['Find uses', '$0 code-refs openDatabase']],
  })

  protected async run(): Promise<number> {
    const { codeRefs } = await import('../../code/index.js')
    const query = { symbol: this.symbol ?? '', language: this.lang, limit: wholeNumber('code_refs', 'limit', this.limit) }
    const results = await this.withBrain(({ db }) => codeRefs(db, query))
    this.print(results, () => formatReferences(results))
    return 0
  }
}

abstract class CodeGraphCommand extends BrainCommand {
  symbol = Option.String({ required: false })
  depth = Option.String('--depth', { description: 'Hops to walk, 1 (direct, default) to 10' })
  limit = Option.String('--limit', { description: 'Most results (default 50)' })
}

export class CodeCallersCommand extends CodeGraphCommand {
  static override paths = [['code-callers']]
  static override usage = Command.Usage({
    description: 'What calls a symbol; with --depth, everything affected if it changes',
    details: 'Each result carries its depth and the call path it was reached by. A name with several definitions is reported as ambiguous.',
    examples: [['Direct callers', '$0 code-callers importPage'], ['Blast radius', '$0 code-callers importPage --depth 3']],
  })

  protected async run(): Promise<number> {
    const { codeCallers } = await import('../../code/index.js')
    const query = { symbol: this.symbol ?? '', depth: wholeNumber('code_callers', 'depth', this.depth), limit: wholeNumber('code_callers', 'limit', this.limit) }
    const response = await this.withBrain(({ db }) => codeCallers(db, query))
    this.print(response, () => formatGraph(response))
    return 0
  }
}

export class CodeCalleesCommand extends CodeGraphCommand {
  static override paths = [['code-callees']]
  static override usage = Command.Usage({
    description: 'What a symbol calls; with --depth, transitively',
    examples: [['Direct callees', '$0 code-callees importPage'], ['Two hops', '$0 code-callees importPage --depth 2']],
  })

  protected async run(): Promise<number> {
    const { codeCallees } = await import('../../code/index.js')
    const query = { symbol: this.symbol ?? '', depth: wholeNumber('code_callees', 'depth', this.depth), limit: wholeNumber('code_callees', 'limit', this.limit) }
    const response = await this.withBrain(({ db }) => codeCallees(db, query))
    this.print(response, () => formatGraph(response))
    return 0
  }
}
