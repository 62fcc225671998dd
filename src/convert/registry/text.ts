/**
 * Plain text and markdown, converted only when a content type says so (a fetched page): by name
 * they are notes, which a folder import reads as they are.
 */
import { defineFormat } from './format.js'

export const text = defineFormat({
  name: 'text',
  produces: ['text'],
  extensions: [],
  contentTypes: ['text/plain', 'text/markdown'],
  singlePage: true,
  convert: async () => (await import('../text.js')).convertText,
})
