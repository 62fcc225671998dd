/** What the export splitters share: one item's bytes gathered from a stream of chunks. */

/** An item's bytes, or the size of an item too large to hold. */
export type Item = Buffer | { tooLarge: number }

export const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** Gathers one item's pieces, dropping them once it passes the item limit. */
export class ItemBuilder {
  private pieces: Buffer[] = []
  private size = 0
  constructor(private readonly maxBytes: number) {}
  add(piece: Buffer): void {
    if (piece.length === 0) return
    this.size += piece.length
    if (this.size > this.maxBytes) this.pieces = []
    else this.pieces.push(piece)
  }
  get empty(): boolean {
    return this.size === 0
  }
  take(): Item {
    const item: Item = this.size > this.maxBytes ? { tooLarge: this.size } : Buffer.concat(this.pieces)
    this.pieces = []
    this.size = 0
    return item
  }
}
