export type PageKind = 'markdown' | 'code'

export interface Provenance {
  ingestedVia: string | null
  ingestedAt: Date | null
  sourceUri: string | null
  sourceKind: string | null
}

export interface Page extends Provenance {
  id: number
  sourceId: string
  slug: string
  title: string
  type: string
  pageKind: PageKind
  compiledTruth: string
  timeline: string
  frontmatter: Record<string, unknown>
  tags: string[]
  contentHash: string
  createdAt: Date
  updatedAt: Date
  /** Through what and by whom the current content was written (history records them per version). */
  writtenVia: string | null
  writtenBy: string | null
  /** Lines the current content added and removed against the content before it (null: not recorded). */
  linesAdded: number | null
  linesRemoved: number | null
}

export interface PageSummary {
  id: number
  sourceId: string
  slug: string
  title: string
  type: string
  pageKind: PageKind
  tags: string[]
  updatedAt: Date
}

export interface StoredChunk {
  id: number
  chunkIndex: number
  chunkText: string
  chunkSource: string
  tokenCount: number
  embedded: boolean
  embeddedAt: Date | null
  model: string | null
  language: string | null
  symbolName: string | null
  symbolType: string | null
  startLine: number | null
  endLine: number | null
  parentSymbolPath: string[] | null
  docComment: string | null
  symbolNameQualified: string | null
}

export const DEFAULT_SOURCE_ID = 'default'
