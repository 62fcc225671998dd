/**
 * bench/documents: documents through the converters and the import, on PGLite by default.
 * One corpus per run, so each run's peak memory (the process's max RSS, converter worker
 * included) is its own:
 *
 *   node dist/bench/documents/run.js pdf  [count=500]   [pglite|postgres]   ten-page PDFs
 *   node dist/bench/documents/run.js mail [count=10000] [pglite|postgres]   messages in one mbox
 *   node dist/bench/documents/run.js html [count=1000]  [pglite|postgres]   article pages
 *   node dist/bench/documents/run.js whatsapp [count=100000] [pglite|postgres]   messages of one chat
 *   node dist/bench/documents/run.js chats [megabytes=200] [pglite|postgres]   a ChatGPT conversations.json
 *   node dist/bench/documents/run.js telegram [megabytes=200] [pglite|postgres]   a Telegram account's result.json
 *
 * The mail and WhatsApp runs then add one message to the file and import the folder again: what
 * a newer export of the same mailbox or chat costs.
 */
import { appendFileSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { importFolder } from '../../src/intake/import/index.js'
import { openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { sentence, WORDS, writeMbox } from './corpus.js'

async function writePdfs(dir: string, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    const doc = await PDFDocument.create()
    const font = await doc.embedFont(StandardFonts.Helvetica)
    doc.setTitle(`Report ${i}`)
    for (let p = 0; p < 10; p++) {
      const page = doc.addPage([600, 800])
      for (let l = 0; l < 30; l++) page.drawText(sentence(i + p + l), { x: 40, y: 760 - l * 22, size: 10, font })
    }
    writeFileSync(join(dir, `report-${i}.pdf`), await doc.save())
  }
  return count * 10
}

function writeHtml(dir: string, count: number): number {
  for (let i = 0; i < count; i++) {
    const paragraphs = Array.from({ length: 8 }, (_, k) => `<p>${sentence(i + k, 30)}</p>`).join('')
    writeFileSync(
      join(dir, `page-${i}.html`),
      `<!doctype html><html><head><title>Page ${i} | Bench</title><link rel="canonical" href="https://bench.example/p/${i}"></head><body><nav><a href="/">Home</a><a href="/a">About</a></nav><article><h1>Article ${i}</h1>${paragraphs}<ul><li>one</li><li>two</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>${i}</td></tr></table></article><footer>Footer text</footer></body></html>`,
    )
  }
  return count
}

/** A chat of `count` messages, twenty a day from 2021 on (months of about six hundred). */
function writeWhatsapp(dir: string, count: number): number {
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 20) * 86_400_000)
    const date = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`
    lines.push(`${date}, ${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} - ${i % 2 === 0 ? 'Ana' : 'Bruno'}: ${sentence(i, 8)}`)
  }
  writeFileSync(join(dir, 'WhatsApp Chat with Ana.txt'), `${lines.join('\n')}\n`)
  return count
}

/**
 * A ChatGPT export of about `megabytes` MB: conversations of twenty messages of a few hundred
 * words each, written conversation by conversation (the file is never held whole).
 */
function writeChats(dir: string, megabytes: number): number {
  const fd = openSync(join(dir, 'conversations.json'), 'w')
  let written = 0
  let count = 0
  writeSync(fd, '[\n')
  for (; written < megabytes * 1024 * 1024; count++) {
    const mapping: Record<string, unknown> = {}
    for (let m = 0; m < 20; m++) {
      const text = Array.from({ length: 6 }, (_, k) => sentence(count + m + k, 20)).join(' ')
      mapping[`n${m}`] = {
        id: `n${m}`,
        parent: m === 0 ? null : `n${m - 1}`,
        message: { author: { role: m % 2 === 0 ? 'user' : 'assistant' }, content: { content_type: 'text', parts: [text] }, create_time: 1714550400 + count * 60 + m },
      }
    }
    const json = `${count === 0 ? '' : ',\n'}${JSON.stringify({ id: `conv-${count}`, title: `Conversation ${count} about ${WORDS[count % WORDS.length]}`, create_time: 1714550400 + count * 60, current_node: 'n19', mapping })}`
    written += writeSync(fd, json)
  }
  writeSync(fd, '\n]\n')
  closeSync(fd)
  return count
}

/**
 * A Telegram account export of about `megabytes` MB: twelve chats, each with twenty messages a
 * day of a sentence or two from 2021 on, in Telegram's own layout (a `text` and its
 * `text_entities`), written message by message (the file is never held whole).
 */
function writeTelegram(dir: string, megabytes: number): number {
  mkdirSync(join(dir, 'DataExport_bench'))
  const fd = openSync(join(dir, 'DataExport_bench', 'result.json'), 'w')
  const chats = 12
  const perChat = (megabytes * 1024 * 1024) / chats
  let count = 0
  writeSync(
    fd,
    '{\n "about": "Here is the data you requested.",\n "personal_information": {"user_id": 1, "first_name": "Ana"},\n "chats": {\n  "about": "This page lists all chats from this export.",\n  "list": [\n',
  )
  for (let c = 0; c < chats; c++) {
    writeSync(fd, `${c === 0 ? '' : ',\n'}   {"name": "Chat ${c}", "type": "personal_chat", "id": ${1000 + c}, "messages": [\n`)
    let written = 0
    for (let i = 0; written < perChat; i++, count++) {
      const day = new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 20) * 86_400_000).toISOString().slice(0, 10)
      const text = `${sentence(count, 12)} ${sentence(count + 1, 8)}`
      const message = {
        id: i + 1,
        type: 'message',
        date: `${day}T${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`,
        date_unixtime: '1609488000',
        from: i % 2 === 0 ? 'Ana' : `Friend ${c}`,
        from_id: `user${i % 2 === 0 ? 1 : 100 + c}`,
        text,
        text_entities: [{ type: 'plain', text }],
      }
      written += writeSync(fd, `${i === 0 ? '' : ',\n'}    ${JSON.stringify(message)}`)
    }
    writeSync(fd, '\n   ]}')
  }
  writeSync(fd, '\n  ]\n }\n}\n')
  closeSync(fd)
  return count
}

/** One more message at the end of the mailbox or chat, as a newer export has it. */
function appendOne(dir: string, kind: string, count: number): boolean {
  if (kind === 'mail') {
    appendFileSync(
      join(dir, 'all.mbox'),
      `\nFrom late@bench.example Mon May  6 10:00:00 2024\nFrom: Late <late@bench.example>\nSubject: One more\nDate: Mon, 06 May 2024 10:00:00 +0000\nMessage-ID: <late@bench.example>\nContent-Type: text/plain; charset=utf-8\n\n${sentence(count)}\n`,
    )
    return true
  }
  if (kind === 'whatsapp') {
    const day = new Date(Date.UTC(2021, 0, 1) + Math.floor((count - 1) / 20) * 86_400_000)
    const date = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`
    appendFileSync(join(dir, 'WhatsApp Chat with Ana.txt'), `${date}, 23:59 - Ana: ${sentence(count, 8)}\n`)
    return true
  }
  return false
}

async function main(): Promise<void> {
  const [kind = 'pdf', countArg, engineArg] = process.argv.slice(2)
  const count = Number(countArg ?? (kind === 'pdf' ? 500 : kind === 'mail' ? 10_000 : kind === 'whatsapp' ? 100_000 : kind === 'chats' || kind === 'telegram' ? 200 : 1000))
  const engine = (engineArg ?? 'pglite') as BenchEngine
  const dir = mkdtempSync(join(tmpdir(), 'brain-bench-docs-'))
  try {
    const writers: Record<string, () => number | Promise<number>> = {
      pdf: () => writePdfs(dir, count),
      mail: () => writeMbox(dir, count),
      whatsapp: () => writeWhatsapp(dir, count),
      chats: () => writeChats(dir, count),
      telegram: () => writeTelegram(dir, count),
    }
    const expected = await (writers[kind] ?? (() => writeHtml(dir, count)))()
    const { db, close } = await openBenchDatabase(engine)
    try {
      const started = performance.now()
      // A large export reports the items read after each part: the memory on the way is logged too.
      let logged = 0
      const onProgress = (p: { path?: string }): void => {
        const read = Number(/: (\d+) read$/.exec(p.path ?? '')?.[1] ?? 0)
        if (read < logged + 5000) return
        logged = read
        const rssMb = Math.round(process.memoryUsage().rss / 1024 / 1024)
        console.error(JSON.stringify({ read, seconds: +((performance.now() - started) / 1000).toFixed(1), rss_mb: rssMb, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }))
      }
      const result = await importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto', onProgress })
      const seconds = (performance.now() - started) / 1000
      const pages = result.created + result.updated
      const peakMb = process.resourceUsage().maxRSS / 1024
      let again: Record<string, number> = {}
      if (appendOne(dir, kind, count)) {
        const restarted = performance.now()
        const second = await importFolder(db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
        again = { reimport_seconds: +((performance.now() - restarted) / 1000).toFixed(2), reimport_written: second.created + second.updated }
      }
      console.log(
        JSON.stringify({
          engine,
          kind,
          count,
          pages,
          expected_units: expected,
          failed: result.failed.length,
          seconds: +seconds.toFixed(1),
          pages_per_s: +(pages / seconds).toFixed(1),
          units_per_s: +(expected / seconds).toFixed(1),
          peak_rss_mb: Math.round(peakMb),
          ...again,
        }),
      )
    } finally {
      await close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    stopBenchCluster()
  }
}

await main()
