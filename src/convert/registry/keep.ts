/** Google Keep notes in a Google Takeout export: one page per note. */
import { defineFormat } from './format.js'

const KEEP_NOTE = /(^|\/)takeout\/(?:google )?keep\/[^/]+\.(json|html)$/i

export const keep = defineFormat({
  name: 'keep',
  produces: ['keep'],
  extensions: [],
  fileName: (file) => KEEP_NOTE.test(file.path),
  contentTypes: [],
  singlePage: true,
  convert: async () => (await import('../keep.js')).convertKeep,
})
