import { watch as fsWatch, type FSWatcher } from 'node:fs'
import { lstat, opendir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError, serializeError } from '../../../errors/index.js'
import { isDocumentPath } from '../../../convert/index.js'
import { documentSlugForPath } from '../../import/import-documents.js'
import { markdownSlugForPath } from '../../../pages/index.js'
import type { IngestionEvent } from '../event.js'
import { contentTypeForFile } from './inbox.js'
import { createFileFilter, type FileFilter } from '../../sources/file-filter.js'
import { readTextFile } from '../../sources/read-text.js'
import type { IngestionSource, IngestionSourceContext } from '../contract.js'

const WATCH_DEBOUNCE_MS = 1000

type WatchFn = (path: string, listener: (event: string, filename: string | Buffer | null) => void) => FSWatcher

interface DirectoryWatcherOptions {
  /** The brain directory (`sync.repo_path`). */
  dir: string
  debounceMs?: number
  /** The watch primitive; tests replace it to simulate inotify exhaustion. */
  watch?: WatchFn
  /** Where the current inotify limit is read for the hint. */
  maxWatchesFile?: string
}

/** The paste-ready fix for ENOSPC from inotify: double the current per-user watch limit. */
export async function inotifyHint(maxWatchesFile = '/proc/sys/fs/inotify/max_user_watches'): Promise<string> {
  const current = Number((await readFile(maxWatchesFile, 'utf8').catch(() => '')).trim())
  const next = Number.isFinite(current) && current > 0 ? Math.max(current * 2, 524288) : 524288
  return `sudo sysctl fs.inotify.max_user_watches=${next} && echo fs.inotify.max_user_watches=${next} | sudo tee /etc/sysctl.d/60-brain-inotify.conf`
}

/**
 * The brain-directory watcher: a markdown file that changes becomes one event, 1 s after its last
 * change. Directories are pruned exactly as sync prunes them (one watch per kept directory, so
 * node_modules and friends cost no inotify watches) and symbolic links are refused.
 */
export class DirectoryWatcherSource implements IngestionSource {
  readonly id = 'watcher'
  private readonly filter: FileFilter = createFileFilter({ strategy: 'markdown' })
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly generation = new Map<string, number>()
  private readonly pending = new Set<Promise<void>>()

  constructor(private readonly options: DirectoryWatcherOptions) {}

  async run(ctx: IngestionSourceContext): Promise<void> {
    try {
      await this.watchTree(ctx, '')
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) return resolve()
        ctx.signal.addEventListener('abort', () => resolve(), { once: true })
      })
    } finally {
      for (const w of this.watchers.values()) w.close()
      this.watchers.clear()
      await Promise.allSettled([...this.pending])
    }
  }

  /** Watches `relDir` and every directory below it that sync would enter. */
  private async watchTree(ctx: IngestionSourceContext, relDir: string): Promise<void> {
    const stack = [relDir]
    while (stack.length > 0) {
      const current = stack.pop()!
      if (this.watchers.has(current)) continue
      await this.watchOne(ctx, current)
      const dir = await opendir(join(this.options.dir, current)).catch(() => null)
      if (!dir) continue
      for await (const entry of dir) {
        const rel = current === '' ? entry.name : `${current}/${entry.name}`
        if (entry.isDirectory() && !entry.isSymbolicLink() && this.filter.enterDirectory(rel)) stack.push(rel)
      }
    }
  }

  private async watchOne(ctx: IngestionSourceContext, relDir: string): Promise<void> {
    const watchFn = this.options.watch ?? ((path, listener) => fsWatch(path, listener))
    try {
      const watcher = watchFn(join(this.options.dir, relDir), (_event, filename) => {
        if (filename === null) return
        const name = filename.toString()
        this.changed(ctx, relDir === '' ? name : `${relDir}/${name}`)
      })
      watcher.on('error', (err) => ctx.warn(`watching ${relDir || '.'} failed: ${serializeError(err).message}`))
      this.watchers.set(relDir, watcher)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
        const hint = await inotifyHint(this.options.maxWatchesFile)
        ctx.warn(`the system ran out of inotify watches; raise the limit with: ${hint}`)
        throw new ConfigError('inotify_watches_exhausted', `Out of inotify watches while watching ${join(this.options.dir, relDir)}.`, { hint, cause: err })
      }
      throw err
    }
  }

  /** Restarts the path's 1 s debounce; only the last change in a burst is read. */
  private changed(ctx: IngestionSourceContext, relPath: string): void {
    const generation = (this.generation.get(relPath) ?? 0) + 1
    this.generation.set(relPath, generation)
    const task = ctx
      .sleep(this.options.debounceMs ?? WATCH_DEBOUNCE_MS)
      .then(async () => {
        if (this.generation.get(relPath) !== generation) return
        this.generation.delete(relPath)
        await this.settled(ctx, relPath)
      })
      .catch((err: unknown) => {
        if (!ctx.signal.aborted) ctx.warn(`${relPath}: ${serializeError(err).message}`)
      })
      .finally(() => this.pending.delete(task))
    this.pending.add(task)
  }

  private async settled(ctx: IngestionSourceContext, relPath: string): Promise<void> {
    const absolute = join(this.options.dir, relPath)
    const info = await lstat(absolute).catch(() => null)
    if (!info) return
    if (info.isSymbolicLink()) {
      ctx.warn(`${relPath} is a symbolic link; links are never followed`)
      return
    }
    if (info.isDirectory()) {
      if (this.filter.enterDirectory(relPath)) await this.watchTree(ctx, relPath)
      return
    }
    const parent = relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : ''
    if (!info.isFile() || !this.insideKeptDirs(parent)) return
    const slugPath = relative(this.options.dir, absolute).split(sep).join('/')
    const name = slugPath.slice(slugPath.lastIndexOf('/') + 1)
    let event: IngestionEvent
    if (isDocumentPath(relPath) && !name.startsWith('.')) {
      // A document (PDF, docx, mail, chat export) goes to its converter as bytes.
      const bytes = await readFile(absolute)
      if (bytes.length === 0) return
      event = {
        content_type: contentTypeForFile(name),
        content_encoding: 'base64',
        content: bytes.toString('base64'),
        source_id: this.id,
        source_uri: pathToFileURL(absolute).href,
        received_at: new Date(ctx.now()).toISOString(),
        metadata: { slug: documentSlugForPath(slugPath), file_name: name },
      }
    } else {
      if (this.filter.kindOf(relPath) !== 'markdown') return
      const content = await readTextFile(absolute)
      if (content.trim() === '') return
      event = {
        content_type: 'text/markdown',
        content,
        source_id: this.id,
        source_uri: pathToFileURL(absolute).href,
        received_at: new Date(ctx.now()).toISOString(),
        metadata: { slug: markdownSlugForPath(slugPath) },
      }
    }
    for (let outcome = await ctx.emit(event); outcome.status === 'rate_limited' && !ctx.signal.aborted; outcome = await ctx.emit(event)) {
      await ctx.sleep(outcome.retryAfterMs)
    }
  }

  private insideKeptDirs(relDir: string): boolean {
    if (relDir === '') return true
    const parts = relDir.split('/')
    return parts.every((_, i) => this.filter.enterDirectory(parts.slice(0, i + 1).join('/')))
  }
}
