/**
 * WhatsApp chat exports, by the names the app gives them: `WhatsApp Chat with Ana.txt` (in the
 * app's language), an iPhone's `_chat.txt`, and the zips holding either. Any other `.txt` stays a note.
 */
import { defineFormat } from './format.js'

export const whatsapp = defineFormat({
  name: 'whatsapp',
  produces: ['whatsapp'],
  extensions: [],
  fileName: (file) => /\.(txt|zip)$/.test(file.base) && (file.base.includes('whatsapp') || file.base === '_chat.txt'),
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../whatsapp.js')).convertWhatsapp,
})
