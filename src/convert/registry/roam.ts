/**
 * Roam Research's export: the `Roam-Export-….zip` it downloads, or its JSON by its first bytes (an
 * array of pages with titles, Roam's `create-time`/`edit-time` stamps and blocks). Any other JSON
 * stays code or data.
 */
import { defineFormat } from './format.js'
import { headText, named } from './sniff.js'

function looksLikeRoam(bytes: Uint8Array): boolean {
  const text = headText(bytes)
  return /^\s*\[\s*\{/.test(text) && /"title"\s*:/.test(text) && /"(?:create|edit)-time"\s*:/.test(text) && /"(?:children|string)"\s*:/.test(text)
}

export const roam = defineFormat({
  name: 'roam',
  produces: ['roam'],
  extensions: [],
  fileName: (file) => /^roam-export-[^/]*\.zip$/.test(file.base),
  sniff: { names: named('.json'), test: looksLikeRoam },
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../roam.js')).convertRoam,
})
