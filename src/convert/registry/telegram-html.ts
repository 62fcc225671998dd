/**
 * Telegram Desktop's HTML export: a page of it (`messages.html`, then `messages2.html`, …) with
 * Telegram's markup, whatever type it was sent with, and the export folder zipped
 * (`ChatExport_….zip`, `DataExport_….zip`).
 */
import { defineFormat } from './format.js'
import { headText, SNIFF_BYTES } from './sniff.js'

const TELEGRAM_PAGE = /(^|\/)messages\d*\.html$/i

/** Telegram's markup, which each page of its HTML export opens with. */
export function looksLikeTelegramHtml(bytes: Uint8Array): boolean {
  const head = headText(bytes, SNIFF_BYTES)
  return head.includes('class="page_header"') && head.includes('class="message')
}

export const telegramHtml = defineFormat({
  name: 'telegram-html',
  produces: ['telegram'],
  extensions: [],
  fileName: (file) => /^(chat|data)export[^/]*\.zip$/.test(file.base),
  sniff: { names: (file) => TELEGRAM_PAGE.test(file.path), test: looksLikeTelegramHtml },
  contentTypes: [],
  sniffOverTypesOf: ['html'],
  singlePage: false,
  convert: async () => (await import('../telegram-html.js')).convertTelegramHtml,
})
