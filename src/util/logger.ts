export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Writes human lines to stderr, keeping stdout for results. */
export function stderrLogger(prefix = 'brain'): Logger {
  return streamLogger(process.stderr, prefix)
}

/** Human lines on a given stream: a command's own stderr, which may be a client's far away. */
export function streamLogger(stream: { write(text: string): unknown }, prefix = 'brain'): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : ''
    stream.write(`${prefix}: ${level === 'info' ? '' : `${level}: `}${message}${suffix}\n`)
  }
  return {
    info: (m, f) => line('info', m, f),
    warn: (m, f) => line('warn', m, f),
    error: (m, f) => line('error', m, f),
  }
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined }

/** Collects messages; for tests and for operations that report warnings in their result. */
export function memoryLogger(): Logger & { lines: Array<{ level: string; message: string }> } {
  const lines: Array<{ level: string; message: string }> = []
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  }
}
