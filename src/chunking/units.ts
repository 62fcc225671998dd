/**
 * The intermediate form of code chunking: line ranges with the symbol they belong to.
 */

export interface Sym {
  name: string | null
  type: string
  /** Scope chain of enclosing named symbols, outermost first. */
  parentPath: string[]
  doc: string | null
}

export interface Unit {
  /** 0-based first and last line, inclusive. */
  start: number
  end: number
  /** The symbol this range is (or is a piece of); null for top-level code between definitions. */
  sym: Sym | null
  /** A part of a node larger than the budget; pieces are never merged with siblings. */
  piece: boolean
  /** Set when a single over-long line had to be cut: the fragment's text. */
  fragment?: string
  /** Number of units merged into this one (merged chunks only). */
  merged?: number
}

export const MODULE_SYMBOL_TYPE = 'module'
export const MERGED_SYMBOL_TYPE = 'merged'
