/** Web pages: one page each, as saved or fetched. */
import { defineFormat } from './format.js'

export const HTML_EXTENSIONS = ['.html', '.htm', '.xhtml', '.xhtm']

export const html = defineFormat({
  name: 'html',
  produces: ['html'],
  extensions: HTML_EXTENSIONS,
  contentTypes: ['text/html', 'application/xhtml+xml'],
  singlePage: true,
  convert: async () => (await import('../html.js')).convertHtml,
})
