import * as z from 'zod'
import type { CodeDefinition, CodeGraphNode, CodeGraphResponse, CodeReference } from '../code/index.js'
import { slugText } from './pages.js'
import { defineOperation, type CliOption, type Operation } from './operation.js'

const symbol = z.string().trim().min(1).max(500).describe('Symbol name; a qualified name (Queue.submit, module.func, A::b) narrows to that definition')
const language = z.string().trim().min(1).max(50).optional().describe('Only this language (typescript, ts, python, …)')
const lookupLimit = z.number().int().min(1).max(1000).optional().describe('Most results (default 20)')
const graphInput = z.strictObject({
  symbol,
  depth: z.number().int().min(1).max(10).optional().describe('Hops to walk, 1 (direct, default) to 10'),
  limit: z.number().int().min(1).max(1000).optional().describe('Most results (default 50)'),
})

function location(r: { file: string | null; startLine: number | null; endLine: number | null }): string {
  if (r.file === null) return '(not in the brain)'
  return r.startLine === null ? r.file : `${r.file}:${r.startLine}-${r.endLine ?? r.startLine}`
}

/**
 * The line of a definition that names it: a return type on the line before (C), a decorator,
 * an annotation or a doc comment above it would say nothing of what is defined. The first
 * non-blank line when no early line holds the name.
 */
function signatureLine(snippet: string, name: string): string {
  const lines = snippet
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
  const comment = /^(?:\/\/|\/?\*|#(?!\[)|--|"""|''')/
  const naming = lines.slice(0, 12).find((l) => l.includes(name) && !comment.test(l))
  return (naming ?? lines[0] ?? '').slice(0, 120)
}

function formatDefinitions(results: readonly CodeDefinition[]): string {
  if (results.length === 0) return 'No definitions.'
  return results.map((r) => `${location(r)}  ${r.symbolType} ${r.symbolNameQualified ?? r.symbolName}\n    ${signatureLine(r.snippet, r.symbolName)}`).join('\n')
}

function formatReferences(results: readonly CodeReference[]): string {
  if (results.length === 0) return 'No references.'
  return results.map((r) => `${location(r)}  ${r.symbolName ?? r.symbolType ?? ''}`.trimEnd()).join('\n')
}

function graphLine(node: CodeGraphNode): string {
  const name = node.symbolNameQualified ?? node.symbolName ?? '(top level)'
  const ambiguous = node.candidates > 1 ? ` [one of ${node.candidates} definitions]` : ''
  return `${'  '.repeat(node.depth - 1)}${name}  ${location(node)}  ${node.edgeType}${ambiguous}\n${'  '.repeat(node.depth - 1)}    via ${node.path.join(' → ')}`
}

function formatGraph(response: CodeGraphResponse): string {
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

const LOOKUP_FLAGS: CliOption[] = [
  { field: 'language', flag: '--lang', kind: 'string', description: 'Only this language (typescript, ts, python, …)' },
  { field: 'limit', flag: '--limit', kind: 'integer', description: 'Most results (default 20)' },
]
const GRAPH_FLAGS: CliOption[] = [
  { field: 'depth', flag: '--depth', kind: 'integer', description: 'Hops to walk, 1 (direct, default) to 10' },
  { field: 'limit', flag: '--limit', kind: 'integer', description: 'Most results (default 50)' },
]
const symbolWord = { field: 'symbol', required: false }

const codeDefTool = defineOperation({
  name: 'code_def',
  description:
    'Where a symbol is defined in the indexed code: functions, classes, interfaces, types, … and methods, matched by exact name. Use it to jump to an implementation; use code_refs for every mention. Returns {results: [{slug, file, language, symbol_type, start_line, end_line, snippet}]}.',
  input: z.strictObject({ symbol, language, limit: lookupLimit }),
  mutating: false,
  async run(ctx, args) {
    const { codeDef } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { results: await codeDef(db, { symbol: args.symbol, language: args.language, limit: args.limit }) }
  },
  cli: {
    path: ['code-def'],
    description: 'Where a symbol is defined: functions, classes, types, … and methods',
    details:
      'Matches definition names exactly. A qualified name (`Queue.submit`, `module.func`, `A::b`) matches that definition only. Ranked by kind (function, class, interface, type, enum, struct, trait, module, contract, export statement, then method), then slug and line.',
    examples: [
      ['Find a function', '$0 code-def importPage'],
      ['A method', '$0 code-def Queue.submit --lang ts'],
    ],
    positional: symbolWord,
    options: LOOKUP_FLAGS,
    integerErrorPrefix: 'code_def_',
  },
  present: { json: (result) => result.results, text: (result) => formatDefinitions(result.results) },
})

const codeRefsTool = defineOperation({
  name: 'code_refs',
  description:
    'Every code chunk that mentions a symbol (case-insensitive substring), not one per file. Use it to find usages before changing something. Returns {results: [...]} with file, lines and a snippet.',
  input: z.strictObject({ symbol, language, limit: lookupLimit }),
  mutating: false,
  async run(ctx, args) {
    const { codeRefs } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { results: await codeRefs(db, { symbol: args.symbol, language: args.language, limit: args.limit }) }
  },
  cli: {
    path: ['code-refs'],
    description: 'Every code chunk that mentions a symbol (case-insensitive substring)',
    examples: [['Find uses', '$0 code-refs openDatabase']],
    positional: symbolWord,
    options: LOOKUP_FLAGS,
    integerErrorPrefix: 'code_refs_',
  },
  present: { json: (result) => result.results, text: (result) => formatReferences(result.results) },
})

const codeCallersTool = defineOperation({
  name: 'code_callers',
  description: 'What calls a symbol, from the call graph; with depth > 1, everything affected if it changes (blast radius). Each result has its depth and call path; an ambiguous name is flagged.',
  input: graphInput,
  mutating: false,
  async run(ctx, args) {
    const { codeCallers } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { ...(await codeCallers(db, args)) }
  },
  cli: {
    path: ['code-callers'],
    description: 'What calls a symbol; with --depth, everything affected if it changes',
    details: 'Each result carries its depth and the call path it was reached by. A name with several definitions is reported as ambiguous.',
    examples: [
      ['Direct callers', '$0 code-callers importPage'],
      ['Blast radius', '$0 code-callers importPage --depth 3'],
    ],
    positional: symbolWord,
    options: GRAPH_FLAGS,
    integerErrorPrefix: 'code_callers_',
  },
  present: { text: formatGraph },
})

const codeCalleesTool = defineOperation({
  name: 'code_callees',
  description: 'What a symbol calls, from the call graph; with depth > 1, transitively. Use it to understand what a function depends on.',
  input: graphInput,
  mutating: false,
  async run(ctx, args) {
    const { codeCallees } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { ...(await codeCallees(db, args)) }
  },
  cli: {
    path: ['code-callees'],
    description: 'What a symbol calls; with --depth, transitively',
    examples: [
      ['Direct callees', '$0 code-callees importPage'],
      ['Two hops', '$0 code-callees importPage --depth 2'],
    ],
    positional: symbolWord,
    options: GRAPH_FLAGS,
    integerErrorPrefix: 'code_callees_',
  },
  present: { text: formatGraph },
})

const codeSymbolsTool = defineOperation({
  name: 'code_symbols',
  description:
    'The outline of one code file: the functions, classes, methods and types its page defines, in file order, with their lines. Use code_callers / code_callees on a name to follow the call graph.',
  input: z.strictObject({ slug: slugText, source: z.string().trim().min(1).max(200).optional().describe('The source id, when several sources hold the slug') }),
  mutating: false,
  async run(ctx, args) {
    const { fileSymbols } = await import('../code/index.js')
    return { ...(await fileSymbols((await ctx.brain()).db, args.slug, args.source ?? null)) }
  },
  present: {
    text: (r) => (r.symbols.length === 0 ? 'No symbols.' : r.symbols.map((s) => `${String(s.startLine).padStart(5)}-${s.endLine}  ${s.symbolType.padEnd(10)}  ${s.qualified}`).join('\n')),
  },
  cli: { path: ['code-symbols'], description: 'The outline of one code file: the symbols it defines, with their lines', positional: { field: 'slug', required: true }, options: [] },
})

export const codeTools: Operation[] = [codeDefTool, codeRefsTool, codeCallersTool, codeCalleesTool, codeSymbolsTool]
