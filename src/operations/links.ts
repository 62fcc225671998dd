import * as z from 'zod'
import type { EntitySummary, GraphWalkResult, OrphanPage, PageLink, WantedPage } from '../links/index.js'
import { slugText } from './pages.js'
import { defineOperation, type CliOption, type Operation } from './operation.js'

const slug = slugText.describe('Page slug')
const source = z.string().trim().min(1).max(200).optional().describe('Only this source (default: every source)')
const types = z
  .array(z.string().trim().min(1).max(100))
  .max(50)
  .optional()
  .describe('Only these link types: links_to, embeds, mentions, documents, documented_by, a front-matter property name, calls (graph only)')
const limit = (most: number, fallback: number) => z.number().int().min(1).max(most).optional().describe(`Most results (default ${fallback})`)
const offset = z.number().int().min(0).optional().describe('Results to skip (default 0)')

const TYPE_FLAG: CliOption = { field: 'type', flag: '--type', kind: 'list', description: 'Only these link types (repeat or comma-separate)' }
const SOURCE_FLAG: CliOption = { field: 'source', flag: '--source', kind: 'string', description: 'Only this source' }
const LIMIT_FLAG: CliOption = { field: 'limit', flag: '--limit', kind: 'integer', description: 'Most results' }
const OFFSET_FLAG: CliOption = { field: 'offset', flag: '--offset', kind: 'integer', description: 'Results to skip' }

function linkLine(l: PageLink, direction: 'out' | 'in'): string {
  const other = direction === 'in' ? l.fromSlug : (l.toSlug ?? `${l.targetText === '' ? '(this page)' : l.targetText} (unresolved)`)
  const anchor = l.anchor ? `#${l.anchor}` : ''
  const origin = l.linkSource ? ` (${l.linkSource}${l.originField ? `, ${l.originField}` : ''})` : ''
  const line = l.line !== null ? ` line ${l.line}` : ''
  const head = `${l.linkType.padEnd(14)} ${other}${anchor}${origin}${line}`
  return l.context ? `${head}\n${' '.repeat(15)}${l.context}` : head
}

interface LinkPage {
  links: PageLink[]
  /** Every link that matches, however many this page shows. */
  total: number
  /** Links skipped before this page. */
  offset: number
}

function formatLinks(result: LinkPage, direction: 'out' | 'in'): string {
  const { links, total, offset } = result
  if (total === 0) return direction === 'out' ? 'No links.' : 'No backlinks.'
  const lines = links.map((l) => linkLine(l, direction))
  if (links.length < total) {
    const rest = offset + links.length < total ? `; --offset ${offset + links.length} for the next` : ''
    lines.push(`(showing ${links.length} of ${total}${links.length > 0 ? `, from ${offset + 1}` : ''}${rest})`)
  }
  return lines.join('\n')
}

/** Links per call: a page with more is read in pages with --offset. */
const MOST_LINKS = 100_000
const linkInput = z.strictObject({ slug, type: types, source, limit: limit(MOST_LINKS, 10_000), offset })
const LINK_FLAGS = [TYPE_FLAG, SOURCE_FLAG, LIMIT_FLAG, OFFSET_FLAG]

const getLinksTool = defineOperation({
  name: 'get_links',
  description:
    "A page's outgoing links: wikilinks, embeds, markdown links, front-matter property links, mentions and code citations (documents), unresolved ones too (to_slug null, target_text as written). Each has link_type, line and a short context. Returns {links: [...], total, offset}; total counts every match: page through with limit and offset.",
  input: linkInput,
  mutating: false,
  async run(ctx, args) {
    const { getLinks, countLinks } = await import('../links/index.js')
    const { db } = await ctx.brain()
    const query = { types: args.type, sourceId: args.source, limit: args.limit, offset: args.offset }
    return { links: await getLinks(db, args.slug, query), total: await countLinks(db, args.slug, 'out', query), offset: args.offset ?? 0 }
  },
  cli: {
    path: ['links'],
    description: "A page's outgoing links (wikilinks, embeds, property links, citations, …), with line and context",
    examples: [
      ['Links of a note', '$0 links notes/design'],
      ['Only embeds', '$0 links notes/design --type embeds'],
    ],
    positional: { field: 'slug', required: false },
    options: LINK_FLAGS,
    integerErrorPrefix: 'links_',
  },
  present: { text: (r) => formatLinks(r, 'out') },
})

const getBacklinksTool = defineOperation({
  name: 'get_backlinks',
  description: 'Call it to see what points at a page: notes linking, embedding or mentioning it, and notes documenting a code file, each with from_slug, link_type, line and context.',
  input: linkInput,
  mutating: false,
  memory: true,
  async run(ctx, args) {
    const { getBacklinks, countLinks } = await import('../links/index.js')
    const { db } = await ctx.brain()
    const query = { types: args.type, sourceId: args.source, limit: args.limit, offset: args.offset }
    return { links: await getBacklinks(db, args.slug, query), total: await countLinks(db, args.slug, 'in', query), offset: args.offset ?? 0 }
  },
  cli: {
    path: ['backlinks'],
    description: 'Links pointing at a page (notes linking to it, notes citing a code file, …)',
    examples: [
      ['Notes citing a file', '$0 backlinks src/db/open.ts'],
      ['Who embeds a picture', '$0 backlinks attachments/plan.png --type embeds'],
    ],
    positional: { field: 'slug', required: false },
    options: LINK_FLAGS,
    integerErrorPrefix: 'backlinks_',
  },
  present: { text: (r) => formatLinks(r, 'in') },
})

function formatWalk(result: GraphWalkResult): string {
  const lines = [`${result.start.slug}  (${result.start.title})`]
  for (const node of result.nodes) {
    const arrow = node.direction === 'out' ? '→' : '←'
    // Past the first level, the page it was reached from: lines of one level are not grouped by it.
    const from = node.depth > 1 ? `, from ${node.path[node.path.length - 2]}` : ''
    lines.push(`${'  '.repeat(node.depth)}${arrow} ${node.via}  ${node.slug}  [depth ${node.depth}${from}]`)
  }
  if (result.nodes.length === 0) lines.push('  (no linked pages)')
  if (result.truncated) lines.push(`(stopped at ${result.nodes.length} pages; raise --limit)`)
  return lines.join('\n')
}

const graphWalkTool = defineOperation({
  name: 'graph_walk',
  description:
    'Walk the graph from a page across note links, citations and the code call graph together, breadth first. Each page reached has its depth, the path of slugs it was reached by and the edge type. Use it to gather the context around a note or a code file. Returns {start, nodes, truncated}.',
  input: z.strictObject({
    slug,
    depth: z.number().int().min(1).max(6).optional().describe('Hops, 1 to 6 (default 2)'),
    type: types,
    direction: z.enum(['out', 'in', 'both']).optional().describe('Follow links forwards (out), backwards (in) or both (default)'),
    limit: limit(5000, 100),
    source,
  }),
  mutating: false,
  async run(ctx, args) {
    const { graphWalk } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { ...(await graphWalk(db, { slug: args.slug, sourceId: args.source, depth: args.depth, types: args.type, direction: args.direction, limit: args.limit })) }
  },
  cli: {
    path: ['graph'],
    description: 'Walk the graph from a page: note links, citations and calls, with depth and path',
    details: 'Breadth first; each page appears once, at its smallest depth, with the path it was first reached by. Cycles are cut; --limit caps the pages returned.',
    examples: [
      ['Two hops around a note', '$0 graph notes/design'],
      ['Only what a note links to, three hops', '$0 graph notes/design --depth 3 --direction out --type links_to'],
    ],
    positional: { field: 'slug', required: false },
    options: [
      { field: 'depth', flag: '--depth', kind: 'integer', description: 'Hops, 1 to 6 (default 2)' },
      TYPE_FLAG,
      { field: 'direction', flag: '--direction', kind: 'string', description: 'out, in or both (default)' },
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'Most pages (default 100)' },
      SOURCE_FLAG,
    ],
    integerErrorPrefix: 'graph_',
  },
  present: { text: formatWalk },
})

const orphansTool = defineOperation({
  name: 'list_orphans',
  description: 'Pages with no links in or out (markdown pages by default). Use it to find notes that nothing connects. Returns {pages: [{slug, title, …}]}.',
  input: z.strictObject({ source, kind: z.enum(['markdown', 'code', 'all']).optional().describe('Page kind (default markdown)'), limit: limit(10_000, 100), offset }),
  mutating: false,
  async run(ctx, args) {
    const { listOrphans } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { pages: await listOrphans(db, { sourceId: args.source, kind: args.kind, limit: args.limit, offset: args.offset }) }
  },
  cli: {
    path: ['orphans'],
    description: 'Pages with no links in or out',
    examples: [['Unconnected notes', '$0 orphans']],
    options: [SOURCE_FLAG, { field: 'kind', flag: '--kind', kind: 'string', description: 'markdown (default), code or all' }, LIMIT_FLAG, OFFSET_FLAG],
    integerErrorPrefix: 'orphans_',
  },
  present: {
    text: (r: { pages: OrphanPage[] }) => (r.pages.length === 0 ? 'No orphans.' : r.pages.map((p) => `${p.slug}  (${p.title})`).join('\n')),
  },
})

const unresolvedTool = defineOperation({
  name: 'list_unresolved',
  description:
    'Wanted pages: link targets that match no page, with how many pages link to each, most wanted first. Links to attachment files (images, audio, video, archives, spreadsheets, slides) are left out unless attachments is true. Returns {unresolved: [{target, pages, links, examples}]}.',
  input: z.strictObject({
    source,
    attachments: z.boolean().optional().describe('Also list links to attachment files (images, audio, video, …), which never become pages'),
    limit: limit(10_000, 100),
    offset,
  }),
  mutating: false,
  async run(ctx, args) {
    const { listUnresolved } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { unresolved: await listUnresolved(db, { sourceId: args.source, attachments: args.attachments, limit: args.limit, offset: args.offset }) }
  },
  cli: {
    path: ['unresolved'],
    description: 'Wanted pages: link targets that match no page, with how many pages link to each',
    details:
      'Links to attachment files (images, audio, video, archives, spreadsheets, old slide formats, drawings) are not wanted pages: no import makes a page of such a file. They are left out unless --attachments.',
    examples: [
      ['Most wanted', '$0 unresolved --limit 20'],
      ['With embedded pictures and other files', '$0 unresolved --attachments'],
    ],
    options: [SOURCE_FLAG, { field: 'attachments', flag: '--attachments', kind: 'boolean', description: 'Also list links to attachment files' }, LIMIT_FLAG, OFFSET_FLAG],
    integerErrorPrefix: 'unresolved_',
  },
  present: {
    text: (r: { unresolved: WantedPage[] }) =>
      r.unresolved.length === 0
        ? 'No unresolved links.'
        : r.unresolved.map((w) => `${String(w.pages).padStart(5)}  ${w.target}  (from ${w.examples.join(', ')}${w.pages > w.examples.length ? ', …' : ''})`).join('\n'),
  },
})

const entitiesTool = defineOperation({
  name: 'list_entities',
  description:
    'Entities: pages whose type is person, company, organization (or org), project or place (config links.entity_types), with their aliases, how many pages mention them in plain text and how many other links point at them. Returns {entities: [...]}.',
  input: z.strictObject({ type: z.string().trim().min(1).max(100).optional().describe('Only this entity type'), source, limit: limit(10_000, 100), offset }),
  mutating: false,
  async run(ctx, args) {
    const { listEntities } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { entities: await listEntities(db, { type: args.type, sourceId: args.source, limit: args.limit, offset: args.offset }) }
  },
  cli: {
    path: ['entities'],
    description: 'Entities (people, companies, projects, …) with mention and backlink counts',
    details:
      'An entity is a page whose type is in `links.entity_types` (default person, company, organization, org, project, place). Plain-text mentions of its title or aliases in other notes become `mentions` links; names under three characters, names on `links.mention_stoplist` and names shared by two entities never link.',
    examples: [
      ['Every entity', '$0 entities'],
      ['People only', '$0 entities --type person'],
    ],
    options: [{ field: 'type', flag: '--type', kind: 'string', description: 'Only this entity type' }, SOURCE_FLAG, LIMIT_FLAG, OFFSET_FLAG],
    integerErrorPrefix: 'entities_',
  },
  present: {
    text: (r: { entities: EntitySummary[] }) =>
      r.entities.length === 0
        ? 'No entities (pages of type person, company, organization, project or place).'
        : r.entities.map((e) => `${e.type.padEnd(12)} ${e.slug}  (${e.title})  ${e.mentions} mentions, ${e.backlinks} backlinks`).join('\n'),
  },
})

export const linkTools: Operation[] = [getLinksTool, getBacklinksTool, graphWalkTool, orphansTool, unresolvedTool, entitiesTool]
