/** Day One's JSON export of a journal, by its first bytes: its entries with Day One's `creationDate`. */
import { defineFormat } from './format.js'
import { headText, named } from './sniff.js'

function looksLikeDayOne(bytes: Uint8Array): boolean {
  const text = headText(bytes)
  return /^\s*\{/.test(text) && /"entries"\s*:\s*\[/.test(text) && /"creationDate"\s*:/.test(text)
}

export const dayone = defineFormat({
  name: 'dayone',
  produces: ['dayone'],
  extensions: [],
  sniff: { names: named('.json'), test: looksLikeDayOne },
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../dayone.js')).convertDayOne,
})
