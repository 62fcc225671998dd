import * as z from 'zod'
import type { AskResult, ContextPack, PackDeps } from '../answers/index.js'
import type { JsonCamelCased } from '../util/index.js'
import type { Brain } from './call-context.js'
import { defineOperation, type CliOption, type Operation } from './operation.js'

const packInput = {
  question: z.string().trim().min(1).max(2000).describe('The question, in words'),
  source: z.string().trim().min(1).max(200).optional().describe('Only pages of this source id; the pack never holds another source’s page'),
  budget: z.number().int().min(100).max(32_000).optional().describe('Tokens the evidence may take (cl100k), 100–32000 (default 2000)'),
}
const contextInput = z.strictObject(packInput)
const askInput = z.strictObject({
  ...packInput,
  no_llm: z.boolean().optional().describe('Answer extractively (the pack’s best sentences, cited) even when a chat model is configured'),
})

const PACK_FLAGS: CliOption[] = [
  { field: 'source', flag: '--source', kind: 'string', description: 'Only pages of this source id' },
  { field: 'budget', flag: '--budget', kind: 'integer', description: 'Tokens the evidence may take, 100–32000 (default 2000)' },
]

type Pack = JsonCamelCased<ContextPack>

function formatPack(pack: Pack, render: (items: Pack['items']) => string): string {
  if (pack.items.length === 0) return 'Nothing in the brain bears on this question.'
  return `${render(pack.items)}\n(${pack.items.length} items, ${pack.tokens} of ${pack.budget} tokens)`
}

/** The answer's text, its sources, and what it flagged or could not find: the human form of `ask`. */
export function formatAnswerTail(result: JsonCamelCased<AskResult>, options: { gaps?: boolean } = {}): string {
  const lines: string[] = []
  if (result.citations.length > 0) lines.push('', 'Sources:', ...result.citations.map((c) => `  [${c.n}] ${c.slug}${c.chunkId !== null ? ` (chunk ${c.chunkId})` : ''}`))
  if (result.flags.length > 0) {
    lines.push('', 'Check these:')
    for (const flag of result.flags) {
      if (flag.kind === 'citation_out_of_range') lines.push(`  cites [${flag.n}], which is not in the context: ${flag.sentence}`)
      else if (flag.kind === 'uncited_sentence') lines.push(`  no citation: ${flag.sentence}`)
      else lines.push('  the answer cites nothing in the context')
    }
  }
  if (options.gaps !== false && result.gaps.length > 0) lines.push('', 'Not in the brain:', ...result.gaps.map((g) => `  - ${g}`))
  lines.push('', result.mode === 'extractive' ? 'mode: extractive (no chat model; the best sentences of the context)' : `model: ${result.model ?? ''} · ${result.contextTokens} context tokens`)
  return lines.join('\n')
}

function formatAnswer(result: JsonCamelCased<AskResult>): string {
  const answer = result.answer.trim() === '' ? 'The brain holds nothing that answers this.' : result.answer
  return `${answer}\n${formatAnswerTail(result)}`
}

async function packDeps(brain: Brain): Promise<PackDeps> {
  const { searchDeps } = await import('../search/index.js')
  return { search: searchDeps(brain.db, brain.config) }
}

const contextPackTool = defineOperation({
  name: 'context_pack',
  description:
    'Call it before answering a question from the brain with your own model: the evidence (search hits, summaries, linked pages, timeline entries, code definitions) within a token budget, best first, each item numbered to cite as [n].',
  input: contextInput,
  mutating: false,
  memory: true,
  async run(ctx, args): Promise<ContextPack> {
    const { buildContextPack } = await import('../answers/index.js')
    const brain = await ctx.brain()
    return buildContextPack(await packDeps(brain), args.question, { source: args.source ?? null, budget: args.budget })
  },
  present: {
    text: async (pack) => {
      const { renderItems } = await import('../answers/index.js')
      return formatPack(pack, (items) => renderItems(items.map((item) => ({ ...item, source_id: item.sourceId }))))
    },
    notice: (pack) => pack.notice,
  },
  cli: {
    path: ['context'],
    description: 'The evidence for a question within a token budget, numbered for citing (no model)',
    details:
      'Builds the context pack an answer is made from: hybrid search hits, their pages’ summaries, the pages linked to them and timeline entries that bear on the question, and the definitions of code identifiers it names (`openDatabase`, `Queue.submit`). Items are deduplicated, best first, numbered, and fit the budget in cl100k tokens (default 2000). --source keeps every item inside one source.',
    examples: [
      ['Evidence for a question', '$0 context "when did we move the probe launch?"'],
      ['As JSON for an agent, with a smaller budget', '$0 context --json --budget 1000 "how does the queue claim jobs?"'],
    ],
    positional: { field: 'question', rest: true, required: true },
    options: PACK_FLAGS,
  },
})

export const askTool = defineOperation({
  name: 'ask',
  description:
    'Answers a question from the brain with citations. With a chat model configured (llm.url, llm.model) it answers from the context pack only, each claim citing [n]; citations are checked after generation (a number outside the pack, or a sentence with none, is listed in flags), and gaps lists what the brain does not hold. Without one (or with no_llm) the answer is the pack’s best sentences, cited, mode "extractive". Returns {answer, citations: [{n, slug, chunk_id, excerpt}], flags, gaps, model, mode, context_tokens}.',
  input: askInput,
  mutating: false,
  async run(ctx, args): Promise<AskResult> {
    const { ask } = await import('../answers/index.js')
    const { readLlmSettings } = await import('../config/index.js')
    const brain = await ctx.brain()
    const llm = args.no_llm === true ? null : await readLlmSettings(brain.db, brain.config.llm)
    const { pack: _pack, ...result } = await ask(await packDeps(brain), args.question, {
      source: args.source ?? null,
      budget: args.budget,
      llm,
      noLlm: args.no_llm,
      ...(ctx.onText ? { onText: ctx.onText } : {}),
    })
    return result
  },
  present: { text: formatAnswer, notice: (result) => result.notice },
})

export const answerTools: Operation[] = [contextPackTool, askTool]
