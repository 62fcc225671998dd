/** A page a converter proposes; the importer decides the slug prefix and stores it. */
export interface PageDraft {
  /** Slug below the caller's prefix, lower-case, `/`-separated. */
  slugHint: string
  title: string
  frontmatter: Record<string, unknown>
  /** Markdown body. */
  body: string
  /** Where the draft came from in the original file (page number, message index, line). */
  position?: { page?: number; index?: number; line?: number }
}

export interface ConvertInput {
  bytes: Uint8Array
  /**
   * An export unpacked into a folder (a Slack workspace export): its files by their path inside
   * the folder, with `bytes` empty and `name` the folder's.
   */
  files?: Record<string, Uint8Array>
  /** The original file name (used for format detection and as the last-resort title). */
  name: string
  contentType?: string
  /** Where the bytes were fetched from (web pages: the final URL after redirects). */
  url?: string
  /** When they were fetched (ISO 8601); a converter stays pure by being told. */
  fetchedAt?: string
  /**
   * The file is one page of a site imported as a folder: a page that asks search engines not to
   * index it (`<meta name="robots" content="noindex">`: a print view of the whole book, a table
   * of contents, an old link's notice) is refused with `convert_noindex`.
   */
  refuseNoindex?: boolean
  /**
   * The input is one part of a larger export read in parts (see splitExport): the index of its
   * first item (message, conversation) in the whole export, so names made from an index stay
   * those of the whole.
   */
  firstIndex?: number
}

/**
 * A conversion's pages and the format they call themselves (`source_format`): a converter names
 * the formats it produces, and its format file's `produces` must list them (a compile error
 * otherwise); outside convert/ the format is a `SourceFormat`.
 */
export interface ConvertResult<Format extends string = string> {
  format: Format
  drafts: PageDraft[]
  /** Counts a converter wants reported (e.g. secrets scrubbed). */
  counts: Record<string, number>
}

export interface ConvertLimits {
  maxBytes: number
  maxDrafts: number
  /** Wall-clock limit of one file's conversion in a worker (ms). */
  timeMs?: number
  /** Heap limit of the conversion worker (MiB). */
  maxMemoryMb?: number
}

export const DEFAULT_LIMITS: ConvertLimits = { maxBytes: 50 * 1024 * 1024, maxDrafts: 10_000, timeMs: 60_000, maxMemoryMb: 512 }
