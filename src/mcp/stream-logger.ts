import type { Writable } from 'node:stream'
import type { Logger } from '../util/index.js'

/** Log lines to a given stream (a command's stderr), keeping stdout for the protocol. */
export function streamLogger(stream: Writable, prefix = 'brain serve'): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : ''
    stream.write(`${prefix}: ${level === 'info' ? '' : `${level}: `}${message}${suffix}\n`)
  }
  return { info: (m, f) => line('info', m, f), warn: (m, f) => line('warn', m, f), error: (m, f) => line('error', m, f) }
}
