import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'
import type { ExportFile, ExportResult } from '../../export/index.js'
import { progressPrinter } from '../job-runner.js'
import { checkedArgs } from '../operation-command.js'

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
    const config = await this.loadConfig()
    const progress = progressPrinter(this.context.stderr, 'exporting')
    const filter = { sourceId: this.source, prefix: this.prefix, type: this.type, includeCode: this.includeCode }
    const options = { force: this.force, onProgress: (p: { done: number; total: number }) => progress.update({ done: p.done, total: p.total, unit: 'pages' }) }
    const dir = this.resolvePath(this.dir)
    const result = await (
      config.remote === null ? this.withBrain(async ({ db }) => (await import('../../export/index.js')).exportPages(db, dir, { ...filter, ...options })) : this.exportRemote(dir, options)
    ).finally(() => progress.finish())
    this.print({ ...result }, () => `exported ${result.pages} pages to ${result.dir} (${result.written} written, ${result.unchanged} unchanged)`)
    return 0
  }

  /** On a thin client: the remote brain's export files, a stretch at a time, written here. */
  private async exportRemote(dir: string, options: { force: boolean; onProgress: (p: { done: number; total: number }) => void }): Promise<ExportResult> {
    const { exportFilesTool } = await import('../../operations/index.js')
    const { writeExport } = await import('../../export/index.js')
    const files: ExportFile[] = []
    let offset: number | null = 0
    while (offset !== null) {
      const args = checkedArgs(exportFilesTool, { source: this.source, prefix: this.prefix, type: this.type, include_code: this.includeCode || undefined, offset })
      const page = (await this.runOperation(exportFilesTool, args)) as {
        files: Array<{ path: string; slug: string; sourceId: string; pageKind: ExportFile['page_kind']; content: string }>
        nextOffset: number | null
      }
      files.push(...page.files.map((f) => ({ path: f.path, slug: f.slug, source_id: f.sourceId, page_kind: f.pageKind, content: f.content })))
      offset = page.nextOffset
    }
    return writeExport(dir, files, options)
  }
}
