/** Evernote exports: one page per note. */
import { defineFormat } from './format.js'

export const enex = defineFormat({
  name: 'enex',
  produces: ['enex'],
  extensions: ['.enex'],
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../enex.js')).convertEnex,
})
