import { watch, type FSWatcher } from 'node:fs'
import { lstat, mkdir, readdir, readFile, rename, stat } from 'node:fs/promises'
import { containedDirectory } from '../../../util/index.js'
import { extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { converterFor, SNIFF_BYTES } from '../../../convert/index.js'
import { serializeError } from '../../../errors/index.js'
import { readFirstBytes, readTextFile } from '../../sources/read-text.js'
import type { IngestionSource, IngestionSourceContext } from '../contract.js'

const TYPE_BY_EXTENSION: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.mdx': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.log': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.eml': 'message/rfc822',
  '.mbox': 'application/mbox',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.ipynb': 'application/x-ipynb+json',
  '.enex': 'application/enex+xml',
  '.epub': 'application/epub+zip',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
}

/** Content type of an inbox file, from its extension; unknown extensions read as plain text. */
export function contentTypeForFile(name: string): string {
  return TYPE_BY_EXTENSION[extname(name).toLowerCase()] ?? 'text/plain'
}

const ARCHIVE_DIR = '.archived'
const POLL_MS = 2000

interface InboxSourceOptions {
  dir: string
  pollMs?: number
}

/** A free name for `name` in `dir`: the name itself, else `name.1`, `name.2`, … before the extension. */
async function freeName(dir: string, name: string): Promise<string> {
  const ext = extname(name)
  const stem = name.slice(0, name.length - ext.length)
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? name : `${stem}.${i}${ext}`
    try {
      await lstat(join(dir, candidate))
    } catch {
      return candidate
    }
  }
}

/**
 * The inbox folder: every regular file dropped into it becomes one event. A file is moved to
 * `.archived/<YYYY-MM-DD>/` only after its job is durably submitted, so a crash in between
 * re-sends it, and the job's idempotency key turns the re-send into the same job.
 * Dot-files are ignored (write to `.name` and rename for an atomic drop).
 */
export class InboxSource implements IngestionSource {
  readonly id = 'inbox'
  /** Files refused once (symlinks, binary, unreadable); not reported again on every scan. */
  private readonly refused = new Set<string>()

  constructor(private readonly options: InboxSourceOptions) {}

  async run(ctx: IngestionSourceContext): Promise<void> {
    const { dir } = this.options
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const info = await stat(dir)
    if ((info.mode & 0o002) !== 0) {
      ctx.warn(`the inbox ${dir} is world-writable: anyone on this machine can put pages into your brain. Fix: chmod o-w ${dir}`)
    }
    let wake: () => void = () => undefined
    let watcher: FSWatcher | null = null
    try {
      watcher = watch(dir, () => wake())
      watcher.on('error', () => undefined)
    } catch {
      // Polling alone still finds every file.
    }
    // One poll timer at a time: a burst of watch events must not pile up sleeps.
    let polling: Promise<void> | null = null
    try {
      while (!ctx.signal.aborted) {
        const waitMs = await this.scan(ctx)
        if (ctx.signal.aborted) break
        polling ??= ctx
          .sleep(waitMs)
          .catch(() => undefined)
          .then(() => {
            polling = null
          })
        await Promise.race([polling, new Promise<void>((resolve) => (wake = resolve))])
      }
    } finally {
      watcher?.close()
    }
  }

  /** One pass over the inbox; returns how long to wait before the next one. */
  async scan(ctx: IngestionSourceContext): Promise<number> {
    const entries = (await readdir(this.options.dir, { withFileTypes: true })).filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))
    for (const entry of entries) {
      if (ctx.signal.aborted) break
      const path = join(this.options.dir, entry.name)
      if (entry.isSymbolicLink()) {
        this.refuse(ctx, path, `${entry.name} is a symbolic link; links are never followed, so it stays in the inbox unread`)
        continue
      }
      if (!entry.isFile()) continue
      const outcome = await this.ingestFile(ctx, entry.name, path)
      if (outcome !== null) return outcome
    }
    return this.options.pollMs ?? POLL_MS
  }

  /** null when done with the file; a wait in ms when the pipeline asked to slow down. */
  private async ingestFile(ctx: IngestionSourceContext, name: string, path: string): Promise<number | null> {
    const contentType = contentTypeForFile(name)
    if (converterFor(name) !== null || (await isAppExport(name, path))) return this.ingestDocument(ctx, name, path, contentType)
    if (!contentType.startsWith('text/') && contentType !== 'application/json') {
      this.refuse(ctx, path, `${name} is ${contentType}; no processor for it is installed, so it stays in the inbox`)
      return null
    }
    let content: string
    try {
      content = await readTextFile(path)
    } catch (err) {
      this.refuse(ctx, path, `${name} was not read: ${serializeError(err).message}`)
      return null
    }
    if (content.trim() === '') return null
    return this.send(ctx, name, path, { content_type: contentType, content })
  }

  /** A file a converter reads (PDF, chat export, agent log): its bytes go base64-encoded to the converter. */
  private async ingestDocument(ctx: IngestionSourceContext, name: string, path: string, contentType: string): Promise<number | null> {
    let bytes: Buffer
    try {
      bytes = await readFile(path)
    } catch (err) {
      this.refuse(ctx, path, `${name} was not read: ${serializeError(err).message}`)
      return null
    }
    if (bytes.length === 0) return null
    return this.send(ctx, name, path, { content_type: contentType, content: bytes.toString('base64'), content_encoding: 'base64' })
  }

  private async send(ctx: IngestionSourceContext, name: string, path: string, body: { content_type: string; content: string; content_encoding?: 'base64' }): Promise<number | null> {
    const outcome = await ctx.emit({
      ...body,
      source_id: this.id,
      source_uri: pathToFileURL(path).href,
      received_at: new Date(ctx.now()).toISOString(),
      metadata: { file_name: name },
    })
    if (outcome.status === 'rate_limited') return outcome.retryAfterMs
    if (outcome.status === 'invalid') {
      this.refuse(ctx, path, `${name} was refused: ${outcome.message}`)
      return null
    }
    await this.archive(ctx, name, path)
    return null
  }

  private async archive(ctx: IngestionSourceContext, name: string, path: string): Promise<void> {
    const day = new Date(ctx.now()).toISOString().slice(0, 10)
    const target = join(this.options.dir, ARCHIVE_DIR, day)
    // The archive stays inside the inbox even if `.archived` was made a link to elsewhere.
    await containedDirectory(this.options.dir, target, { create: true, mode: 0o700 })
    await rename(path, join(target, await freeName(target, name)))
  }

  private refuse(ctx: IngestionSourceContext, path: string, message: string): void {
    if (this.refused.has(path)) return
    this.refused.add(path)
    ctx.warn(message)
  }
}

/**
 * A JSON file an app exported (Telegram's `result.json`, Roam's graph), known by its first bytes:
 * its name alone does not tell it from JSON data, which stays a text capture.
 */
async function isAppExport(name: string, path: string): Promise<boolean> {
  if (!name.toLowerCase().endsWith('.json')) return false
  const head = await readFirstBytes(path, SNIFF_BYTES).catch(() => null)
  return head !== null && converterFor(name, undefined, head) !== null
}
