/** Obsidian canvases: one page each, linking to the notes it shows. */
import { defineFormat } from './format.js'

export const canvas = defineFormat({
  name: 'canvas',
  produces: ['canvas'],
  extensions: ['.canvas'],
  contentTypes: [],
  singlePage: true,
  convert: async () => (await import('../canvas.js')).convertCanvas,
})
