/** Kindle highlights: the `My Clippings.txt` a Kindle keeps, a page per book. */
import { defineFormat } from './format.js'

export const kindle = defineFormat({
  name: 'kindle',
  produces: ['kindle'],
  extensions: [],
  fileName: (file) => file.base === 'my clippings.txt',
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../kindle.js')).convertKindle,
})
