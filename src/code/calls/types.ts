/** One call site (or name-binding import) found in a parse tree. */
export interface CallSite {
  /** 1-based line of the call. */
  line: number
  /** The called name as written, last segment only: `submit` for `queue.submit()`. */
  name: string
  /**
   * The receiver or scope it was called on, when it is a plain name: `Queue` for `Queue.make()`,
   * `os` for `os.getcwd()`; `this`/`self` stay as written and are resolved to the enclosing class
   * later. Null for a bare call or a computed receiver (`a().b()`).
   */
  qualifier: string | null
  kind: CallEdgeType
}

export type CallEdgeType = 'calls' | 'imports'
