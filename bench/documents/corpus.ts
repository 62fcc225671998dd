/**
 * Generated document corpora shared by the benches: a sentence of a small vocabulary, and a mailbox
 * of threads written message by message.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export const WORDS = 'tide harbour engine budget design parser review channel signal archive column ledger'.split(' ')
export const sentence = (i: number, n = 14): string => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ') + '.'

/** `all.mbox` in `dir`: `count` messages, every third starting a thread the next two answer. */
export function writeMbox(dir: string, count: number): number {
  // Written message by message, so the file is never held whole by the process measured.
  const fd = openSync(join(dir, 'all.mbox'), 'w')
  for (let i = 0; i < count; i++) {
    const reply = i % 3 === 0 ? '' : `In-Reply-To: <m${i - 1}@bench.example>\n`
    writeSync(
      fd,
      `${i === 0 ? '' : '\n'}` +
        `From sender${i % 50}@bench.example Mon May  6 09:00:00 2024\nFrom: Sender ${i % 50} <sender${i % 50}@bench.example>\nTo: team@bench.example\nSubject: Thread ${Math.floor(i / 3)} message ${i}\nDate: Mon, 06 May 2024 09:${String(i % 60).padStart(2, '0')}:00 +0000\nMessage-ID: <m${i}@bench.example>\n${reply}Content-Type: text/plain; charset=utf-8\n\n${sentence(i)} ${sentence(i + 1)}\n\n> ${sentence(i + 2)}\n\n-- \nSender ${i % 50}\n`,
    )
  }
  closeSync(fd)
  return count
}
