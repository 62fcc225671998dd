/** OPML outlines (outliners, feed readers): one page each. */
import { defineFormat } from './format.js'

export const opml = defineFormat({
  name: 'opml',
  produces: ['opml'],
  extensions: ['.opml'],
  contentTypes: ['text/x-opml'],
  singlePage: true,
  convert: async () => (await import('../opml.js')).convertOpml,
})
