/** A mailbox: its messages one after another, each starting at a `From ` line. */
import { defineFormat } from './format.js'

export const mbox = defineFormat({
  name: 'mbox',
  produces: ['mbox'],
  extensions: ['.mbox'],
  contentTypes: ['application/mbox'],
  singlePage: false,
  convert: async () => {
    const { convertMail } = await import('../mail.js')
    return (input, limits) => convertMail(input, limits, 'mbox')
  },
})
