/** Netscape bookmark files (what every browser exports), by the doctype they open with: one page of links. */
import { defineFormat } from './format.js'
import { HTML_EXTENSIONS } from './html.js'
import { BOOKMARK_DOCTYPE, headText, named } from './sniff.js'

export const bookmarks = defineFormat({
  name: 'bookmarks',
  produces: ['bookmarks'],
  extensions: [],
  sniff: { names: named(...HTML_EXTENSIONS), test: (bytes) => BOOKMARK_DOCTYPE.test(headText(bytes, 256).replace(/^\ufeff/, '')) },
  contentTypes: [],
  singlePage: true,
  convert: async () => (await import('../bookmarks.js')).convertBookmarks,
})
