import * as z from 'zod'
import type { ReconcileResult } from '../links/index.js'
import type { JsonCamelCased } from '../util/index.js'
import { defineOperation, type Operation } from './operation.js'

/** The human summary of a reconcile or extract result. */
function reconcileText(result: JsonCamelCased<ReconcileResult>): string {
  if (result.status === 'auto_link_disabled') return 'auto_link is false: no links derived (`brain config set auto_link true` turns it on).'
  const verb = result.dryRun ? 'would add' : 'added'
  const { mentions, explicit } = result.kinds
  return (
    `${result.pagesScanned} markdown pages, ${result.references} code references: ${verb} ${result.linksAdded} links; ${result.edgesTargetsMissing} cited files have no code page\n` +
    `mentions: ${mentions.found} found, ${mentions.added} ${result.dryRun ? 'to add' : 'added'}; ` +
    `explicit links: ${explicit.stored} ${result.dryRun ? 'to store' : 'stored'} for ${explicit.pagesBackfilled} pages, ${explicit.reresolved} ${result.dryRun ? 'to re-resolve' : 're-resolved'}, ${explicit.unresolved} unresolved`
  )
}

const reconcileLinksTool = defineOperation({
  name: 'reconcile_links',
  description:
    'Re-derive every kind of link over the whole brain: code citations (documents / documented_by), entity mentions, explicit links of pages stored before they were recorded, and the resolution of every explicit link. Idempotent; dry_run counts without writing. Returns counts per family (kinds) and per link type (link_types); does nothing when auto_link is false.',
  input: z.strictObject({ dry_run: z.boolean().optional().describe('Count without writing') }),
  mutating: true,
  async run(ctx, args) {
    const { reconcileLinks } = await import('../links/index.js')
    const { db, config } = await ctx.brain()
    return { ...(await reconcileLinks(db, config, { dryRun: args.dry_run ?? false, signal: ctx.signal })) }
  },
  present: { text: reconcileText },
  cli: {
    path: ['reconcile-links'],
    description: 'Re-derive every kind of link: citations, entity mentions, explicit links, their resolution',
    details:
      "Walks every markdown page, finds code citations (src/…, lib/…, test/… paths with a code extension, optional :line) in compiled truth and timeline, and adds a `documents` link to each cited code page and a `documented_by` link back; adds `mentions` links for plain-text mentions of entities (see `brain entities`); parses the explicit links (wikilinks, embeds, markdown and property links) of pages stored before they were recorded; and resolves every explicit link again. Idempotent; counts per family under `kinds` and per link type (links_to, embeds, mentions, documents, …) under `link_types`. A cited file without a code page is counted as edgesTargetsMissing (the specification's name, kept in JSON). With auto_link = false it does nothing.",
    examples: [
      ['Preview', '$0 reconcile-links --dry-run'],
      ['Run', '$0 reconcile-links'],
    ],
    options: [{ field: 'dry_run', flag: '--dry-run', kind: 'boolean', description: 'Count without writing' }],
  },
})

export const extractLinksTool = defineOperation({
  name: 'extract_links',
  description:
    'Derive the links of the given pages (all pages when slugs is absent) as an `extract` job, and wait for it. For a markdown page: its citation and mention links (and its explicit links when none are stored yet); for a code page: the links of every markdown page citing it. Explicit links of the pages scanned are resolved again. Returns the same counts as reconcile_links.',
  input: z.strictObject({ slugs: z.array(z.string().trim().min(1).max(500)).max(10_000).optional().describe('Page slugs (default: every page)') }),
  mutating: true,
  async run(ctx, args) {
    const { openQueue } = await import('../queue/index.js')
    const { db, config } = await ctx.brain()
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      const job = await queue.submitAndWait('extract', args.slugs ? { slugs: args.slugs } : {}, { onProgress: ctx.onProgress, signal: ctx.signal })
      return { ...(job.result as ReconcileResult) }
    } finally {
      await queue.close()
    }
  },
  present: { text: reconcileText },
})

export const deriveLinkTools: Operation[] = [reconcileLinksTool, extractLinksTool]
