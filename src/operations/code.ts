import { z } from 'zod'
import { defineOperation, type Operation } from './operation.js'

const symbol = z.string().trim().min(1).max(500).describe('Symbol name; a qualified name (Queue.submit, module.func, A::b) narrows to that definition')
const language = z.string().trim().min(1).max(50).optional().describe('Only this language (typescript, ts, python, …)')
const lookupLimit = z.number().int().min(1).max(1000).optional().describe('Most results (default 20)')
const graphInput = z.strictObject({
  symbol,
  depth: z.number().int().min(1).max(10).optional().describe('Hops to walk, 1 (direct, default) to 10'),
  limit: z.number().int().min(1).max(1000).optional().describe('Most results (default 50)'),
})
const slug = z.string().trim().min(1).max(512).describe('Page slug')

export const codeDefTool = defineOperation({
  name: 'code_def',
  description:
    'Where a symbol is defined in the indexed code: functions, classes, interfaces, types, … and methods, matched by exact name. Use it to jump to an implementation; use code_refs for every mention. Returns {results: [{slug, file, language, symbol_type, start_line, end_line, snippet}]}.',
  input: z.strictObject({ symbol, language, limit: lookupLimit }),
  mutating: false,
  async run(ctx, args) {
    const { codeDef } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { results: await codeDef(db, { symbol: args.symbol, language: args.language, limit: args.limit }) }
  },
})

export const codeRefsTool = defineOperation({
  name: 'code_refs',
  description: 'Every code chunk that mentions a symbol (case-insensitive substring), not one per file. Use it to find usages before changing something. Returns {results: [...]} with file, lines and a snippet.',
  input: z.strictObject({ symbol, language, limit: lookupLimit }),
  mutating: false,
  async run(ctx, args) {
    const { codeRefs } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { results: await codeRefs(db, { symbol: args.symbol, language: args.language, limit: args.limit }) }
  },
})

export const codeCallersTool = defineOperation({
  name: 'code_callers',
  description: 'What calls a symbol, from the call graph; with depth > 1, everything affected if it changes (blast radius). Each result has its depth and call path; an ambiguous name is flagged.',
  input: graphInput,
  mutating: false,
  async run(ctx, args) {
    const { codeCallers } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { ...(await codeCallers(db, args)) }
  },
})

export const codeCalleesTool = defineOperation({
  name: 'code_callees',
  description: 'What a symbol calls, from the call graph; with depth > 1, transitively. Use it to understand what a function depends on.',
  input: graphInput,
  mutating: false,
  async run(ctx, args) {
    const { codeCallees } = await import('../code/index.js')
    const { db } = await ctx.brain()
    return { ...(await codeCallees(db, args)) }
  },
})

export const getLinksTool = defineOperation({
  name: 'get_links',
  description: 'Outgoing links of a page (e.g. a note that documents code files). Returns {links: [{to_slug, link_type, …}]}.',
  input: z.strictObject({ slug }),
  mutating: false,
  async run(ctx, args) {
    const { getLinks } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { links: await getLinks(db, args.slug) }
  },
})

export const getBacklinksTool = defineOperation({
  name: 'get_backlinks',
  description: 'Pages linking to a page (e.g. the notes that document a code file). Returns {links: [{from_slug, link_type, …}]}.',
  input: z.strictObject({ slug }),
  mutating: false,
  async run(ctx, args) {
    const { getBacklinks } = await import('../links/index.js')
    const { db } = await ctx.brain()
    return { links: await getBacklinks(db, args.slug) }
  },
})

export const codeTools: Operation[] = [codeDefTool, codeRefsTool, codeCallersTool, codeCalleesTool, getLinksTool, getBacklinksTool]
