import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

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
      ['Capture a web page', '$0 capture --url https://example.org/post'],
    ],
  })

  text = Option.Rest()
  file = Option.String('--file', { description: 'Read the content from a file' })
  stdin = Option.Boolean('--stdin', false, { description: 'Read the content from standard input' })
  url = Option.String('--url', { description: 'Fetch an http(s) URL and convert it (HTML, PDF, text) into web/<host>/<path>' })
  allowPrivate = Option.Boolean('--allow-private', false, { description: 'Let --url reach loopback and private-network addresses' })
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
      const { readTextFile } = await import('../../intake/sources/index.js')
      return readTextFile(this.resolvePath(this.file))
    }
    return this.stdin ? this.readStdin() : this.text.join(' ')
  }

  /** A --file a converter reads (PDF, chat export, agent log), as the capture operation's `file`; else null. */
  private async documentFile(): Promise<{ name: string; data_base64: string } | null> {
    if (this.file === undefined || this.text.length > 0 || this.stdin) return null
    const { readFile } = await import('node:fs/promises')
    const { basename } = await import('node:path')
    const { converterFor } = await import('../../convert/index.js')
    const path = this.resolvePath(this.file)
    // An unreadable file is reported by the text path's reader, with its own error.
    const bytes = await readFile(path).catch(() => null)
    if (bytes === null) return null
    if (converterFor(path, undefined, bytes) === null) return null
    return { name: basename(path), data_base64: bytes.toString('base64') }
  }

  protected async run(): Promise<number> {
    if (this.url !== undefined) {
      if (this.text.length > 0 || this.file !== undefined || this.stdin) {
        throw new UsageError('capture_requires_one_input', 'Give the content one way: text, --file, --stdin or --url.', { hint: 'brain capture --url https://example.org/post' })
      }
      const { captureTool } = await import('../../operations/capture.js')
      const args = checkedArgs(captureTool, { url: this.url, allow_private: this.allowPrivate || undefined, slug: this.slug, no_embed: this.noEmbed || undefined })
      return this.finish(captureTool, await this.runOperation(captureTool, args))
    }
    const document = await this.documentFile()
    if (document !== null) {
      const { captureTool } = await import('../../operations/capture.js')
      const args = checkedArgs(captureTool, { file: document, slug: this.slug, source: this.source, no_embed: this.noEmbed || undefined })
      return this.finish(captureTool, await this.runOperation(captureTool, args))
    }
    const raw = await this.content()
    if (raw.trim() === '') throw new UsageError('capture_empty', 'The content is empty.', { hint: 'Capture some text.' })
    const { captureTool } = await import('../../operations/capture.js')
    const { loadConfig } = await import('../../config/index.js')
    let receipt: Record<string, unknown>
    if (loadConfig({ env: this.context.env }).remote !== null) {
      const args = checkedArgs(captureTool, { text: raw, slug: this.slug, type: this.type, source: this.source, no_embed: this.noEmbed || undefined })
      receipt = await this.runOperation(captureTool, args)
    } else {
      // A mutating verb: locally the capture job writes the page, and its result is the receipt.
      const { runJob } = await import('../job-runner.js')
      const { camelCaseKeys, toSnakeCaseJson } = await import('../../util/json-shape.js')
      const data = { content: raw, slug: this.slug, type: this.type, source: this.source, captured_at: new Date().toISOString(), noEmbed: this.noEmbed }
      receipt = camelCaseKeys(toSnakeCaseJson(await this.withBrain((brain) => runJob(brain, this.context.stderr, 'capture', data, 'capturing')))) as Record<string, unknown>
    }
    return this.finish(captureTool, receipt)
  }

  private async finish(operation: Parameters<BrainCommand['present']>[0], receipt: Record<string, unknown>): Promise<number> {
    if (this.quiet && !this.json) {
      this.context.stdout.write(`${String(receipt.slug)}\n`)
      return 0
    }
    await this.present(operation, receipt)
    return 0
  }
}
