import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import type { CaptureReceipt } from '../../capture/index.js'
import { BrainCommand } from '../brain-command.js'

export class CaptureCommand extends BrainCommand {
  static override paths = [['capture']]
  static override usage = Command.Usage({
    description: 'Capture a thought, a file or stdin as a page in one command',
    details:
      'Prose is wrapped in front matter (type, title, captured_via, captured_at) under a `# <title>` heading; content that starts with a heading or front matter is kept as it is. The default slug is inbox/<YYYY-MM-DD>-<hash8>, so the same content captured twice the same day is one page.',
    examples: [
      ['Capture a thought', '$0 capture "Call the dentist about the crown"'],
      ['Capture a file', '$0 capture --file meeting.md --slug meetings/2024-05-02'],
      ['Capture from a pipe', 'pbpaste | $0 capture --stdin --quiet'],
    ],
  })

  text = Option.Rest()
  file = Option.String('--file', { description: 'Read the content from a file' })
  stdin = Option.Boolean('--stdin', false, { description: 'Read the content from standard input' })
  slug = Option.String('--slug', { description: 'Target slug (default inbox/<date>-<hash8>)' })
  type = Option.String('--type', { description: 'Page type for wrapped prose (default capture)' })
  source = Option.String('--source', { description: 'Where the content came from, stamped as provenance' })
  quiet = Option.Boolean('--quiet', false, { description: 'Print only the slug' })
  noEmbed = Option.Boolean('--no-embed', false, { description: 'Store without computing embeddings' })

  private async content(): Promise<string> {
    const chosen = [this.text.length > 0, this.file !== undefined, this.stdin].filter(Boolean).length
    if (chosen !== 1) {
      throw new UsageError('capture_requires_one_input', chosen === 0 ? 'Nothing to capture.' : 'Give the content one way: text, --file or --stdin.', {
        hint: 'brain capture "some text" | brain capture --file note.md | … | brain capture --stdin',
      })
    }
    if (this.file !== undefined) {
      const { readTextFile } = await import('../../sources/index.js')
      return readTextFile(this.resolvePath(this.file))
    }
    return this.stdin ? this.readStdin() : this.text.join(' ')
  }

  protected async run(): Promise<number> {
    const raw = await this.content()
    if (raw.trim() === '') throw new UsageError('capture_empty', 'The content is empty.', { hint: 'Capture some text.' })
    const { runJob } = await import('../job-runner.js')
    const data = { content: raw, slug: this.slug, type: this.type, source: this.source, captured_at: new Date().toISOString(), noEmbed: this.noEmbed }
    // A mutating verb: the capture job writes the page and its result is the receipt.
    const receipt = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'capture', data, 'capturing'))) as CaptureReceipt
    if (this.quiet && !this.json) {
      this.context.stdout.write(`${receipt.slug}\n`)
      return 0
    }
    this.print(receipt, () => {
      const where = receipt.write_through.written ? receipt.write_through.path : `not written (${receipt.write_through.reason})`
      return [`slug:    ${receipt.slug}`, `status:  ${receipt.status}`, `hash:    ${receipt.contentHash}`, `path:    ${where}`, `title:   ${receipt.title}`].join('\n')
    })
    return 0
  }
}
