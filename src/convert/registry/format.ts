/** What a document format is: one object per format, from which every list of the converters is derived. */
import type { ConvertInput, ConvertLimits, ConvertResult } from '../types.js'

/** The format a converter may hand a file to when it holds none of its own (a clippings file without clippings is still text). */
export const FALLBACK_FORMAT = 'text'

/** A format's converter; its results may call themselves only what the format produces, or the fallback. */
export type Converter<Produces extends string = string> = (
  input: ConvertInput,
  limits: ConvertLimits,
) => ConvertResult<Produces | typeof FALLBACK_FORMAT> | Promise<ConvertResult<Produces | typeof FALLBACK_FORMAT>>

/** A file as detection sees it: by its name, and by its first bytes when the caller read them. */
export interface FileFacts {
  /** The path or name as given (folder imports pass the path below the import root). */
  path: string
  /** The last segment of the path, lower-cased. */
  base: string
  /** The file's first bytes (up to `SNIFF_BYTES`), when read. */
  head?: Uint8Array
}

/** A test of a file's first bytes, tried only on names it applies to (sniffing every file costs a read). */
interface Sniff {
  names: (file: FileFacts) => boolean
  test: (head: Uint8Array) => boolean
}

export interface DocumentFormat<Name extends string = string, Produces extends string = string> {
  /** The converter's name, what `converterFor` returns. */
  name: Name
  /** What the converter's results and pages call their format (`source_format` in front matter). */
  produces: readonly Produces[]
  /** Name endings (lower-case, with the dot) that mark a file of this format by name alone. */
  extensions: readonly string[]
  /** Other names that mark it by name alone (an app's export, a folder layout). */
  fileName?: (file: FileFacts) => boolean
  /** Bytes a file of this format starts with, whatever it is called. */
  magic?: readonly number[]
  /** A file of this format among files of a common kind (`.json`, `.html`), by its first bytes. */
  sniff?: Sniff
  /** Declared content types (a fetched page, an upload) that name this format. */
  contentTypes: readonly string[]
  /**
   * Formats whose content type this format's sniff overrides: a page of an app's HTML export is
   * still the app's export when it comes as `text/html`.
   */
  sniffOverTypesOf?: readonly string[]
  /**
   * One file makes one page, named after the file (`papers/Q1 Report.pdf` → `papers/q1-report`);
   * multi-page formats (chat exports, mailboxes) name their pages themselves.
   */
  singlePage: boolean
  /** Tighter limits than the caller's for this format's conversions. */
  limits?: Partial<Pick<ConvertLimits, 'maxBytes' | 'maxDrafts'>>
  /** The converter, loaded on first use: the parsers are large, and a format file must be cheap to import. */
  convert: () => Promise<Converter<NoInfer<Produces>>>
}

/**
 * Keeps a format's name and what it produces as literal types, so the unions of converter names
 * and source formats are derived from the registry, and a converter whose results call
 * themselves something the format does not produce is a compile error.
 */
export function defineFormat<const Name extends string, const Produces extends string>(format: DocumentFormat<Name, Produces>): DocumentFormat<Name, Produces> {
  return format
}
