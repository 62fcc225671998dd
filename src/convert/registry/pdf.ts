/** PDF documents: one page each, known by their `%PDF-` header whatever they are called. */
import { defineFormat } from './format.js'

export const pdf = defineFormat({
  name: 'pdf',
  produces: ['pdf'],
  extensions: ['.pdf'],
  magic: [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  contentTypes: ['application/pdf'],
  singlePage: true,
  convert: async () => (await import('../pdf.js')).convertPdf,
})
