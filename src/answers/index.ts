/**
 * Answers with citations. Owns the context pack (the evidence for a question within a token
 * budget, built with no model: hybrid hits, page summaries, the pages next to a hit in its series,
 * linked pages, timeline entries, code definitions), the extractive answer, the one OpenAI-compatible chat client with its prompt
 * (page content fenced as data) and error mapping, and the check of an answer's citations
 * against its pack.
 * May import: config, db, embedding, errors, search.
 */
export { buildContextPack, DEFAULT_PACK_BUDGET, MIN_PACK_BUDGET, MAX_PACK_BUDGET, type PackDeps, type PackOptions } from './pack.js'
export { ask, judgeAnswer, type AskOptions } from './ask.js'
export { extractiveAnswer } from './extractive.js'
export { checkCitations, citedNumbers, splitGaps, GAPS_HEADING } from './citations.js'
export { buildMessages, type ChatMessage } from './prompt.js'
export { chat, listModels, type ChatOptions, type ChatReply } from './llm-client.js'
export { ChatError, redactKey, retryAfterSeconds } from './llm-errors.js'
export { itemHeading, renderItem, renderItems } from './render.js'
export type { ContextPack, PackItem, PackItemKind, AskResult, AnswerFlag, Citation } from './types.js'
