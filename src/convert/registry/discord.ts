/** DiscordChatExporter's JSON of a channel, by its name: `Server - channel [id].json`. */
import { defineFormat } from './format.js'

export const discord = defineFormat({
  name: 'discord',
  produces: ['discord'],
  extensions: [],
  fileName: (file) => /\[\d{15,21}\]\.json$/.test(file.base),
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../discord.js')).convertDiscord,
})
