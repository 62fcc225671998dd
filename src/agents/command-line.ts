/**
 * Command lines as brain writes them into agents' files: split like a shell splits them (so
 * `--command "node /opt/brain/bin/brain.js"` becomes two argv words, not one quoted word) and
 * quoted back for the agents whose hooks are shell strings.
 */
import { UsageError } from '../errors/index.js'

/** Splits a command line into words: blanks separate, '…' is literal, "…" and \ escape. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: "'" | '"' | null = null
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quote === "'") {
      if (ch === "'") quote = null
      else word += ch
    } else if (quote === '"') {
      if (ch === '"') quote = null
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i]
      else word += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      inWord = true
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i]
      inWord = true
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += ch
      inWord = true
    }
  }
  if (quote !== null) throw new UsageError('invalid_command', `--command has an unclosed ${quote} quote: ${line}`)
  if (inWord) words.push(word)
  if (words.length === 0) throw new UsageError('invalid_command', '--command is empty.', { hint: 'Give the command line that starts brain, e.g. --command "node /opt/brain/bin/brain.js".' })
  return words
}

/** A word as a POSIX shell reads it back unchanged. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ')
}
