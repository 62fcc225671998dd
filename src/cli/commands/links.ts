import { Command, Option } from 'clipanion'
import type { ReconcileResult } from '../../links/index.js'
import { BrainCommand } from '../brain-command.js'

function formatReconcile(result: ReconcileResult): string {
  if (result.status === 'auto_link_disabled') return 'auto_link is false: no links derived (`brain config set auto_link true` turns it on).'
  const verb = result.dryRun ? 'would add' : 'added'
  const { mentions, explicit } = result.kinds
  return (
    `${result.pagesScanned} markdown pages, ${result.references} code references: ${verb} ${result.linksAdded} links; ${result.edgesTargetsMissing} cited files have no code page\n` +
    `mentions: ${mentions.found} found, ${mentions.added} ${result.dryRun ? 'to add' : 'added'}; ` +
    `explicit links: ${explicit.stored} ${result.dryRun ? 'to store' : 'stored'} for ${explicit.pagesBackfilled} pages, ${explicit.reresolved} ${result.dryRun ? 'to re-resolve' : 're-resolved'}, ${explicit.unresolved} unresolved`
  )
}

export class ReconcileLinksCommand extends BrainCommand {
  static override paths = [['reconcile-links']]
  static override usage = Command.Usage({
    description: 'Re-derive every kind of link: citations, entity mentions, explicit links, their resolution',
    details:
      "Walks every markdown page, finds code citations (src/…, lib/…, test/… paths with a code extension, optional :line) in compiled truth and timeline, and adds a `documents` link to each cited code page and a `documented_by` link back; adds `mentions` links for plain-text mentions of entities (see `brain entities`); parses the explicit links (wikilinks, embeds, markdown and property links) of pages stored before they were recorded; and resolves every explicit link again. Idempotent; counts per family under `kinds` and per link type (links_to, embeds, mentions, documents, …) under `link_types`. A cited file without a code page is counted as edgesTargetsMissing (the specification's name, kept in JSON). With auto_link = false it does nothing.",
    examples: [
      ['Preview', '$0 reconcile-links --dry-run'],
      ['Run', '$0 reconcile-links'],
    ],
  })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Count without writing' })

  protected async run(): Promise<number> {
    const { reconcileLinks } = await import('../../links/index.js')
    const result = await this.withBrain(({ db, config }) => reconcileLinks(db, config, { dryRun: this.dryRun }))
    this.print(result, () => formatReconcile(result))
    return 0
  }
}

export class ExtractCommand extends BrainCommand {
  static override paths = [['extract']]
  static override usage = Command.Usage({
    description: 'Derive links for the given pages, or all pages (runs as an `extract` job)',
    details:
      'For a markdown slug: its citation and mention links (and its explicit links, if it has none stored yet). For a code slug: the links of every markdown page citing it (fills the gap when the code arrived after the note). Explicit links of the pages scanned are resolved again.',
    examples: [
      ['Everything', '$0 extract'],
      ['One note and one file', '$0 extract notes/design src/db/open.ts'],
    ],
  })
  slugs = Option.Rest()

  protected async run(): Promise<number> {
    const { runJob } = await import('../job-runner.js')
    const data = this.slugs.length > 0 ? { slugs: this.slugs } : {}
    const result = (await this.withBrain((brain) => runJob(brain, this.context.stderr, 'extract', data, 'extract'))) as ReconcileResult
    this.print(result, () => formatReconcile(result))
    return 0
  }
}
