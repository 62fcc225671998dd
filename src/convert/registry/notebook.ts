/** Jupyter notebooks: one page each, with their code, output text and markdown cells. */
import { defineFormat } from './format.js'

export const notebook = defineFormat({
  name: 'notebook',
  produces: ['ipynb'],
  extensions: ['.ipynb'],
  contentTypes: ['application/x-ipynb+json'],
  singlePage: true,
  convert: async () => (await import('../notebook.js')).convertNotebook,
})
