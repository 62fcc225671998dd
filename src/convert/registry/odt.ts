/** OpenDocument text (LibreOffice, OpenOffice): one page each. */
import { defineFormat } from './format.js'

export const odt = defineFormat({
  name: 'odt',
  produces: ['odt'],
  extensions: ['.odt'],
  contentTypes: ['application/vnd.oasis.opendocument.text'],
  singlePage: true,
  convert: async () => (await import('../odt.js')).convertOdt,
})
