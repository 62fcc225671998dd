/** What a document format is: one object per format, from which every list of the converters is derived. */
import type { ConvertInput, ConvertLimits, ConvertResult, SourceFormat } from '../types.js'

export type Converter = (input: ConvertInput, limits: ConvertLimits) => ConvertResult | Promise<ConvertResult>

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

export interface DocumentFormat<Name extends string = string, Produces extends SourceFormat = SourceFormat> {
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
  convert: () => Promise<Converter>
}

/**
 * Keeps a format's name and what it produces as literal types, so the union of names is derived
 * from the registry and a source format no format produces is a compile error.
 */
export function defineFormat<const Name extends string, const Produces extends SourceFormat>(format: DocumentFormat<Name, Produces>): DocumentFormat<Name, Produces> {
  return format
}
