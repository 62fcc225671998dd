/** Word documents: one page each. */
import { defineFormat } from './format.js'

export const docx = defineFormat({
  name: 'docx',
  produces: ['docx'],
  extensions: ['.docx'],
  contentTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  singlePage: true,
  convert: async () => (await import('../docx.js')).convertDocx,
})
