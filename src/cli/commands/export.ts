import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'
import { progressPrinter } from '../job-runner.js'

export class ExportCommand extends BrainCommand {
  static override paths = [['export']]
  static override usage = Command.Usage({
    description: 'Write pages out as markdown files that import back into the same pages',
    details:
      'Each page becomes `<slug>.md` with its front matter, tags and timeline; pages of other sources go under `.sources/<id>/`, code pages (with --include-code) to their file path. Files are written whole (a temporary file, then a rename) and never outside <dir>. An existing file with other content is not replaced without --force. Slugs a file name cannot carry (capitals, spaces) are listed in `.brain-export.json`, which `brain import` reads.',
    examples: [
      ['Back up every note', '$0 export ~/brain-backup'],
      ['One folder of notes', '$0 export ./out --prefix projects/'],
    ],
  })
  dir = Option.String({ name: 'dir', required: true })
  source = Option.String('--source', { description: 'Only pages of this source' })
  prefix = Option.String('--prefix', { description: 'Only slugs starting with this' })
  type = Option.String('--type', { description: 'Only pages of this type' })
  includeCode = Option.Boolean('--include-code', false, { description: 'Code pages too (written to their file path)' })
  force = Option.Boolean('--force', false, { description: 'Replace existing files that differ' })

  protected async run(): Promise<number> {
    const { exportPages } = await import('../../export/index.js')
    const progress = progressPrinter(this.context.stderr, 'exporting')
    const result = await this.withBrain(({ db }) =>
      exportPages(db, this.resolvePath(this.dir), {
        sourceId: this.source,
        prefix: this.prefix,
        type: this.type,
        includeCode: this.includeCode,
        force: this.force,
        onProgress: (p) => progress.update({ done: p.done, total: p.total, unit: 'pages' }),
      }),
    ).finally(() => progress.finish())
    this.print({ ...result }, () => `exported ${result.pages} pages to ${result.dir} (${result.written} written, ${result.unchanged} unchanged)`)
    return 0
  }
}
