/** EPUB books: one page each, its chapters in reading order. */
import { defineFormat } from './format.js'

export const epub = defineFormat({
  name: 'epub',
  produces: ['epub'],
  extensions: ['.epub'],
  contentTypes: ['application/epub+zip'],
  singlePage: true,
  convert: async () => (await import('../epub.js')).convertEpub,
})
