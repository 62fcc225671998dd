/** One mail message: an `.eml` file, or a Maildir message (`<dir>/cur/<time>.<unique>`). */
import { defineFormat } from './format.js'

export const eml = defineFormat({
  name: 'eml',
  produces: ['eml'],
  extensions: ['.eml'],
  fileName: (file) => /(^|\/)(cur|new)\/\d{9,}\.[^/]+$/.test(file.path),
  contentTypes: ['message/rfc822'],
  singlePage: false,
  convert: async () => {
    const { convertMail } = await import('../mail.js')
    return (input, limits) => convertMail(input, limits, 'eml')
  },
})
