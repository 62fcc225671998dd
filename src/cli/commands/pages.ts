import { Command, Option } from 'clipanion'
import { NotFoundError, UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

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
    const { putPageTool } = await import('../../operations/pages.js')
    const args = { slug: this.slug, content, source: this.source, no_embed: this.noEmbed || undefined, dry_run: this.dryRun || undefined }
    await this.present(putPageTool, await this.runOperation(putPageTool, checkedArgs(putPageTool, args)))
    return 0
  }
}

export class GetCommand extends BrainCommand {
  static override paths = [['get']]
  static override usage = Command.Usage({ description: 'Print a page as markdown (--chunks: its chunks with their metadata; --version N: an earlier version)' })
  slug = Option.String({ required: true })
  source = pageSourceOption()
  chunks = Option.Boolean('--chunks', false, { description: 'Show the stored chunks' })
  version = Option.String('--version', { description: 'Print version <n> (see `brain history`)' })

  protected async run(): Promise<number> {
    if (this.version !== undefined) {
      const { getVersionTool } = await import('../../operations/history.js')
      const version = Number(this.version)
      if (!/^\d+$/.test(this.version.trim()) || version < 1)
        throw new UsageError('get_invalid_version', `--version ${this.version} is not a version number.`, { hint: 'Version numbers are whole numbers from 1; see `brain history <slug>`.' })
      const args = { slug: this.slug, version, source: this.source }
      await this.present(getVersionTool, await this.runOperation(getVersionTool, checkedArgs(getVersionTool, args)))
      return 0
    }
    const { getPageTool } = await import('../../operations/pages.js')
    const args = { slug: this.slug, source: this.source, chunks: this.chunks || undefined }
    await this.present(getPageTool, await this.runOperation(getPageTool, checkedArgs(getPageTool, args)))
    return 0
  }
}

export class DiffCommand extends BrainCommand {
  static override paths = [['diff']]
  static override usage = Command.Usage({
    description: 'Show what changed in a page between two versions (unified diff)',
    details: 'With no numbers: the newest earlier version against the current content. With N: version N against the current content. With N M: version N against version M.',
    examples: [
      ['The last change', '$0 diff notes/idea'],
      ['Version 2 against 5', '$0 diff notes/idea 2 5'],
    ],
  })
  slug = Option.String({ required: true })
  versions = Option.Rest({ name: 'N M' })
  source = pageSourceOption()

  protected async run(): Promise<number> {
    if (this.versions.length > 2) throw new UsageError('diff_too_many_versions', 'Give at most two version numbers.', { hint: 'brain diff <slug> [N [M]]' })
    const numbers = this.versions.map((word) => {
      if (!/^\d+$/.test(word) || Number(word) < 1)
        throw new UsageError('diff_invalid_version', `${word} is not a version number.`, { hint: 'Version numbers are whole numbers from 1; see `brain history <slug>`.' })
      return Number(word)
    })
    const { diffVersionsTool } = await import('../../operations/history.js')
    const args = { slug: this.slug, from: numbers[0], to: numbers[1], source: this.source }
    await this.present(diffVersionsTool, await this.runOperation(diffVersionsTool, checkedArgs(diffVersionsTool, args)))
    return 0
  }
}
