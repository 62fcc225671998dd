/** Slack workspace exports, by the name Slack gives the zip: `<Workspace> Slack export <dates>.zip`. */
import { defineFormat } from './format.js'

export const slack = defineFormat({
  name: 'slack',
  produces: ['slack'],
  extensions: [],
  fileName: (file) => file.base.endsWith('.zip') && file.base.includes('slack export'),
  contentTypes: [],
  singlePage: false,
  convert: async () => (await import('../slack.js')).convertSlack,
})
