import { Command, Option } from 'clipanion'
import type { ImportFolderResult } from '../../intake/import/index.js'
import { BrainCommand } from '../brain-command.js'

export class ImportCommand extends BrainCommand {
  static override paths = [['import']]
  static override usage = Command.Usage({
    description: 'Import a folder of notes and code (it need not be a git repository)',
    details:
      'Walks the folder with the same file filters as sync (markdown: *.md without README files, .raw/ and ops/; code: every supported language), imports each file as a page, then embeds the new chunks. With --strategy auto, documents go through their converters too: PDF files, ChatGPT/Claude.ai conversations*.json exports and coding-agent *.jsonl logs, counted per format; a conversation or message no longer in its export or mailbox moves to the trash. Unchanged files are skipped; a file that fails is reported and the rest continue. Runs as an `import` job.',
    examples: [
      ['Notes and code', '$0 import ~/notes'],
      ['Only code, no embeddings', '$0 import ~/src/app --strategy code --no-embed'],
    ],
  })
  folder = Option.String({ required: true })
  strategy = Option.String('--strategy', 'auto', { description: 'markdown, code or auto (default auto: both)' })
  source = Option.String('--source', { description: 'Source id the pages belong to (default: default)' })
  include = Option.Array('--include', [], { description: 'Only paths matching this glob (repeatable)' })
  exclude = Option.Array('--exclude', [], { description: 'Skip paths matching this glob (repeatable)' })
  noEmbed = Option.Boolean('--no-embed', false, { description: 'Skip embeddings (run `brain embed --stale` later)' })

  protected async run(): Promise<number> {
    const { parseSyncStrategy } = await import('../../intake/sources/index.js')
    const strategy = parseSyncStrategy(this.strategy)
    const { runJob } = await import('../job-runner.js')
    const data = {
      path: this.resolvePath(this.folder),
      strategy,
      include: this.include,
      exclude: this.exclude,
      sourceId: this.source ?? 'default',
      noEmbed: this.noEmbed,
    }
    const result = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'import', data, 'importing', this.context.signal))) as ImportFolderResult
    const { touchedSlugs: _slugs, pageIds: _ids, failed, ...summary } = result
    // Same shape as sync's result: counts, with the failures listed beside them.
    this.print({ ...summary, imported: result.created + result.updated, failed: failed.length, failures: failed }, () => {
      const lines = [
        `${result.files} files: ${result.created} created, ${result.updated} updated, ${result.skipped} unchanged, ${result.failed.length} failed; ${result.chunks} chunks, ${result.embedded} embedded`,
      ]
      for (const [format, n] of Object.entries(result.formats ?? {})) {
        if (format === 'failed' || format === 'unchanged') continue
        lines.push(`  ${format}: ${n.files} files, ${n.pages} pages${n.removed ? `; ${n.removed} no longer in their file, moved to the trash` : ''}`)
      }
      for (const [key, n] of Object.entries(result.documentCounts ?? {})) lines.push(`  ${key.replace(/_/g, ' ')}: ${n}`)
      for (const failure of result.failed) lines.push(`  failed ${failure.path}: ${failure.message}`)
      for (const file of result.ignored ?? []) lines.push(`  skipped ${file.path}: ${file.reason.replace(/_/g, ' ')}`)
      if (result.embedError) lines.push(`  embeddings stopped: ${result.embedError.message} (run \`brain embed --stale\` later)`)
      return lines.join('\n')
    })
    return result.failed.length > 0 && result.created + result.updated + result.skipped === 0 ? 1 : 0
  }
}
