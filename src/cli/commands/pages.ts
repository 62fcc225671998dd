import { Command, Option } from 'clipanion'
import { NotFoundError, UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

const sourceOption = () => Option.String('--source', { description: 'Source id (default: default)' })
const pageSourceOption = () => Option.String('--source', { description: 'Source id; needed only when the slug exists in more than one source' })

export class PutCommand extends BrainCommand {
  static override paths = [['put']]
  static override usage = Command.Usage({
    description: 'Write a markdown page from stdin',
    details: 'Identical content is reported as `skipped` and changes nothing. When sync.repo_path is set, the page is also written to <repo_path>/<slug>.md.',
    examples: [['Write a note', 'echo "# Idea" | $0 put notes/idea']],
  })
  slug = Option.String({ required: true })
  source = sourceOption()
  noEmbed = Option.Boolean('--no-embed', false, { description: 'Store without computing embeddings (embed later with `brain embed --stale`)' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Report what would happen without writing' })

  protected async run(): Promise<number> {
    const content = await this.readStdin()
    if (content.trim() === '') throw new UsageError('put_requires_content', 'No content on stdin.', { hint: 'Pipe the page in: echo "# Title" | brain put <slug>' })
    const { putPage } = await import('../../pages/index.js')
    const { readConfigValue } = await import('../../config/index.js')
    const { embeddingProviderFor } = await import('../../embed/index.js')
    const { streamLogger } = await import('../../util/logger.js')
    const result = await this.withBrain(async ({ db, config }) =>
      putPage(
        {
          db,
          logger: streamLogger(this.context.stderr),
          repoPath: await readConfigValue(db, 'sync.repo_path'),
          remote: false,
          dryRun: this.dryRun,
          embedder: this.noEmbed ? null : embeddingProviderFor(config.embedding),
          maxFences: config.import.maxFencesPerPage,
        },
        { slug: this.slug, content, sourceId: this.source },
      ),
    )
    this.print(result, () => {
      const where = result.write_through.written ? ` -> ${result.write_through.path}` : ''
      return result.status === 'skipped' ? `skipped ${result.slug} (unchanged)` : `${result.status} ${result.slug} (${result.chunks} chunks)${where}`
    })
    return 0
  }
}

export class GetCommand extends BrainCommand {
  static override paths = [['get']]
  static override usage = Command.Usage({ description: 'Print a page as markdown (--chunks: its chunks with their metadata)' })
  slug = Option.String({ required: true })
  source = pageSourceOption()
  chunks = Option.Boolean('--chunks', false, { description: 'Show the stored chunks' })

  protected async run(): Promise<number> {
    const { findPage, listChunks, serializePage, resolvePageRef } = await import('../../pages/index.js')
    const { page, chunks } = await this.withBrain(async ({ db }) => {
      const ref = await resolvePageRef(db, this.slug, this.source)
      const page = await findPage(db, ref.sourceId, ref.slug)
      if (!page) throw new NotFoundError('page_not_found', `No page ${this.slug}.`, { hint: 'List pages with `brain list`.' })
      return { page, chunks: this.chunks ? await listChunks(db, page.id) : undefined }
    })
    this.print(chunks ? { ...page, chunks } : page, () => {
      if (!chunks) return serializePage(page)
      return chunks
        .map((c) => {
          const meta = [c.chunkSource, c.language, c.symbolType, c.symbolNameQualified ?? c.symbolName, c.startLine ? `L${c.startLine}-${c.endLine}` : null, c.embedded ? 'embedded' : 'not embedded']
          return `--- chunk ${c.chunkIndex} (${meta.filter(Boolean).join(', ')})\n${c.chunkText}`
        })
        .join('\n')
    })
    return 0
  }
}

export class ListCommand extends BrainCommand {
  static override paths = [['list']]
  static override usage = Command.Usage({ description: 'List pages, newest first' })
  type = Option.String('--type', { description: 'Only pages of this type' })
  tag = Option.String('--tag', { description: 'Only pages with this tag' })
  kind = Option.String('--kind', { description: 'markdown or code' })
  source = sourceOption()
  limit = Option.String('--limit', '50', { description: 'At most this many pages (default 50)' })

  protected async run(): Promise<number> {
    const limit = Number(this.limit)
    if (!Number.isInteger(limit) || limit <= 0) throw new UsageError('invalid_limit', `--limit must be a positive whole number, not "${this.limit}".`)
    if (this.kind !== undefined && this.kind !== 'markdown' && this.kind !== 'code') throw new UsageError('invalid_kind', '--kind must be markdown or code.')
    const { listPages } = await import('../../pages/index.js')
    const pages = await this.withBrain(({ db }) =>
      listPages(db, { type: this.type, tag: this.tag, sourceId: this.source, pageKind: this.kind as 'markdown' | 'code' | undefined, limit }),
    )
    this.print(pages, () => (pages.length === 0 ? 'No pages.' : pages.map((p) => `${p.slug}  ${p.title}  (${p.type}${p.tags.length ? `; ${p.tags.join(', ')}` : ''})`).join('\n')))
    return 0
  }
}

export class DeleteCommand extends BrainCommand {
  static override paths = [['delete']]
  static override usage = Command.Usage({ description: 'Delete a page with its chunks, tags and links' })
  slug = Option.String({ required: true })
  source = pageSourceOption()

  protected async run(): Promise<number> {
    const { deletePage, resolvePageRef } = await import('../../pages/index.js')
    const ref = await this.withBrain(async ({ db }) => {
      const ref = await resolvePageRef(db, this.slug, this.source)
      if (!(await deletePage(db, ref.sourceId, ref.slug))) throw new NotFoundError('page_not_found', `No page ${this.slug}.`, { hint: 'List pages with `brain list`.' })
      return ref
    })
    this.print({ slug: ref.slug, source_id: ref.sourceId, deleted: true }, () => `deleted ${ref.slug}`)
    return 0
  }
}

abstract class TagChangeCommand extends BrainCommand {
  slug = Option.String({ required: true })
  tag = Option.String({ required: true })
  source = pageSourceOption()
  protected abstract readonly adding: boolean

  protected async run(): Promise<number> {
    const { resolvePageRef, addTag, removeTag } = await import('../../pages/index.js')
    const tag = this.tag.trim()
    if (tag === '') throw new UsageError('invalid_tag', 'The tag is empty.')
    const changed = await this.withBrain(async ({ db }) => {
      const page = await resolvePageRef(db, this.slug, this.source)
      return this.adding ? addTag(db, page.id, tag) : removeTag(db, page.id, tag)
    })
    this.print({ slug: this.slug, tag, changed }, () => `${this.adding ? 'tagged' : 'untagged'} ${this.slug} ${tag}${changed ? '' : ' (no change)'}`)
    return 0
  }
}

export class TagCommand extends TagChangeCommand {
  static override paths = [['tag']]
  static override usage = Command.Usage({ description: 'Add a tag to a page' })
  protected readonly adding = true
}

export class UntagCommand extends TagChangeCommand {
  static override paths = [['untag']]
  static override usage = Command.Usage({ description: 'Remove a tag from a page' })
  protected readonly adding = false
}
