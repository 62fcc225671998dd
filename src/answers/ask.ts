import type { LlmSettings } from '../config/index.js'
import { checkCitations, splitGaps } from './citations.js'
import { extractiveAnswer } from './extractive.js'
import { chat, type ChatOptions } from './llm-client.js'
import { buildContextPack, type PackDeps, type PackOptions } from './pack.js'
import { buildMessages } from './prompt.js'
import type { AskResult, ContextPack } from './types.js'

export interface AskOptions extends PackOptions {
  /** The chat model; null (none configured) or noLlm gives the extractive answer. */
  llm: LlmSettings | null
  noLlm?: boolean
  chat?: Omit<ChatOptions, 'onText'>
  /** Receives the answer's text as the model writes it (a terminal); the result is whole either way. */
  onText?: (text: string) => void
}

/**
 * Answers a question from its context pack only: with a chat model, its answer checked against
 * the pack after generation; without one, the pack's best sentences, cited.
 */
export async function ask(deps: PackDeps, question: string, options: AskOptions): Promise<AskResult & { pack: ContextPack }> {
  const pack = await buildContextPack(deps, question, options)
  if (options.llm === null || options.noLlm === true) return { ...extractiveAnswer(pack), pack }
  if (pack.items.length === 0) {
    return { answer: '', citations: [], flags: [], gaps: [question], model: options.llm.model, mode: 'llm', context_tokens: 0, notice: pack.notice, pack }
  }
  const reply = await chat(options.llm, buildMessages(pack), { ...options.chat, ...(options.onText ? { onText: options.onText } : {}) })
  return { ...judgeAnswer(reply.text, pack), model: reply.model, pack }
}

/** A model's text judged against its pack: citations resolved, failures flagged, gaps split off. */
export function judgeAnswer(text: string, pack: ContextPack): Omit<AskResult, 'model'> {
  const { answer, gaps } = splitGaps(text)
  const { citations, flags } = checkCitations(answer, pack.items)
  return { answer, citations, flags, gaps, mode: 'llm', context_tokens: pack.tokens, notice: pack.notice }
}
