/** Small helpers the formats' detection shares: names, extensions and the text of a file's start. */
import type { FileFacts } from './format.js'

/** How much of a file's start the sniffs read: a caller that reads ahead needs no more. */
export const SNIFF_BYTES = 16 * 1024

/** The first bytes of a file as text, for a sniff; a character cut at the end does no harm. */
export function headText(bytes: Uint8Array, length = 4096): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, length))
}

/** The first line every Netscape bookmark file starts with (its converter checks it too). */
export const BOOKMARK_DOCTYPE = /^\s*<!DOCTYPE\s+NETSCAPE-Bookmark-file-1\s*>/i

/** A name test for sniffs: the file's name ends with one of these (lower-case, with the dot). */
export function named(...extensions: string[]): (file: FileFacts) => boolean {
  return (file) => extensions.some((extension) => file.base.endsWith(extension))
}

/** The file as detection sees it. */
export function fileFacts(path: string, head?: Uint8Array): FileFacts {
  return { path, base: path.slice(path.lastIndexOf('/') + 1).toLowerCase(), head }
}
