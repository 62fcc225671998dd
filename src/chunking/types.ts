export type ChunkSource = 'compiled_truth' | 'timeline' | 'fenced_code' | 'code'

/** One chunk as the chunkers produce it, before it is stored as a content_chunks row. */
export interface ChunkDraft {
  /** 0-based position in page order. */
  chunkIndex: number
  text: string
  source: ChunkSource
  tokenCount: number
  /** Canonical language id; code chunks only. */
  language: string | null
  symbolName: string | null
  symbolType: string | null
  /** 1-based, inclusive. */
  startLine: number | null
  endLine: number | null
  parentSymbolPath: string[] | null
  docComment: string | null
  symbolNameQualified: string | null
}
