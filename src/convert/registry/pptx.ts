/** PowerPoint decks: one page each, a section per slide. */
import { defineFormat } from './format.js'

export const pptx = defineFormat({
  name: 'pptx',
  produces: ['pptx'],
  extensions: ['.pptx'],
  contentTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  singlePage: true,
  convert: async () => (await import('../pptx.js')).convertPptx,
})
