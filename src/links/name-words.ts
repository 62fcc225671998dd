/**
 * How entity names are compared, one rule for mention links and for recall: a name and a text
 * are both read as lower-cased words of letters and digits (hyphens, dots, underscores and other
 * punctuation split them), a possessive `'s` dropped, so `Tobias's` names Tobias and `Widget-Co`
 * names Widget Co wherever it is read.
 */
import { DB_CONFIG_DEFAULTS } from '../config/index.js'

/** The page types that are entities, and the names that never link or volunteer, unless configured. */
export const DEFAULT_ENTITY_TYPES: readonly string[] = DB_CONFIG_DEFAULTS['links.entity_types'].split(',')
export const DEFAULT_MENTION_STOPLIST: readonly string[] = DB_CONFIG_DEFAULTS['links.mention_stoplist'].split(',')

/** A word as names are compared: letters and digits, an apostrophe inside it kept. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu

/** The words of a text as names are compared. */
export function nameWords(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/['’]s$/u, ''))
}

/** A name as compared: its words joined by one space. */
export function normalizeName(name: string): string {
  return nameWords(name).join(' ')
}

/** Whether each word of nameWords(text), as written, opens with a capital letter. */
export function capitalizedWords(text: string): boolean[] {
  return [...text.matchAll(WORD)].map((m) => /^\p{Lu}/u.test(m[0]))
}
