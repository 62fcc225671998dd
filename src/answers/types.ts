/** What one numbered piece of evidence is: why it is in the pack. */
export type PackItemKind = 'hit' | 'summary' | 'definition' | 'timeline' | 'neighbour' | 'adjacent'

/**
 * One numbered piece of evidence. Field names are snake_case and stable: the JSON of `brain
 * context` and the `context_pack` tool expose them unchanged.
 */
export interface PackItem {
  /** 1-based; what an answer cites as `[n]`. */
  n: number
  kind: PackItemKind
  slug: string
  source_id: string
  title: string
  /** The chunk the text comes from; null for a page summary or a timeline entry. */
  chunk_id: number | null
  /** First line of the text in its page or file, when known. */
  line: number | null
  /** Page of a PDF, when the text comes from one. */
  page: number | null
  /** ISO date: a timeline entry's own date, else when the page was last written. */
  date: string | null
  text: string
  tokens: number
}

export interface ContextPack {
  question: string
  source: string | null
  /** The token budget the items fit in (cl100k tokens of their text). */
  budget: number
  /** Tokens the items use. */
  tokens: number
  items: PackItem[]
  /** Set when retrieval ran on keywords alone, and why. */
  notice: string | null
}

/** Something a generated answer did that its reader should know. */
export interface AnswerFlag {
  kind: 'citation_out_of_range' | 'uncited_sentence' | 'no_citations'
  /** The cited number outside the pack (citation_out_of_range). */
  n?: number
  sentence: string
}

export interface Citation {
  n: number
  slug: string
  chunk_id: number | null
  excerpt: string
}

export interface AskResult {
  answer: string
  citations: Citation[]
  flags: AnswerFlag[]
  /** What the question asks that the pack does not hold. */
  gaps: string[]
  /** The chat model that answered; null for an extractive answer. */
  model: string | null
  mode: 'llm' | 'extractive'
  context_tokens: number
  notice: string | null
}
