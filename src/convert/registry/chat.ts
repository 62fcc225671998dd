/** AI chat exports (ChatGPT, Claude) and agent transcripts, by name: other JSON files stay code or data. */
import { defineFormat } from './format.js'

export const chat = defineFormat({
  name: 'chat',
  produces: ['chatgpt', 'claude', 'agent-jsonl'],
  extensions: ['.jsonl'],
  fileName: (file) => /^conversations.*\.json$/.test(file.base),
  contentTypes: ['application/x-ndjson', 'application/jsonl'],
  singlePage: false,
  convert: async () => (await import('../chat.js')).convertChat,
})
