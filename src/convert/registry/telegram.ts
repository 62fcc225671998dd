/**
 * Telegram's JSON export: a `result.json` in its `ChatExport_…`/`DataExport_…` folder, or with a
 * Telegram chat type in its first bytes. Any other `result.json` stays code.
 */
import { defineFormat } from './format.js'
import { headText } from './sniff.js'

/** The chat types Telegram writes; one of them near the start marks a `result.json` as Telegram's. */
const TELEGRAM_SNIFF = new RegExp(
  String.raw`"type"\s*:\s*"(?:personal_chat|bot_chat|private_group|private_supergroup|public_supergroup|private_channel|public_channel|saved_messages)"|"personal_information"\s*:`,
)

export const telegram = defineFormat({
  name: 'telegram',
  produces: ['telegram'],
  extensions: [],
  fileName: (file) => /(^|\/)(chat|data)export[^/]*\/result\.json$/i.test(file.path),
  sniff: { names: (file) => file.base === 'result.json', test: (bytes) => TELEGRAM_SNIFF.test(headText(bytes)) },
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../telegram.js')).convertTelegram,
})
