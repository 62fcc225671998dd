// test-runner: shares a process
/**
 * Tool profiles in-process: which tools each profile holds, what the memory profile costs an
 * agent in tokens, how `--tools` values are read, and how the dispatcher refuses a tool outside
 * the session's profile while scopes still apply inside it.
 */
import t from 'tap'
import { countTokens } from '../../src/embedding/index.js'
import { dispatchTool } from '../../src/mcp/index.js'
import type { CallContext } from '../../src/operations/index.js'
import { ALL_TOOLS, listTools, OPERATIONS, profileTools, resolveToolSelection, TOOL_PROFILES } from '../../src/operations/index.js'

const names = (tools: ReadonlyArray<{ name: string }>): string[] => tools.map((tool) => tool.name).sort()

/** The memory profile, named here so that tagging one more operation is a decision a test sees. */
const MEMORY = ['capture', 'context_pack', 'get_backlinks', 'get_page', 'list_pages', 'put_page', 'query', 'recall', 'remember', 'search']

t.test('each profile holds exactly the tools its rule picks', async (t) => {
  t.same(names(profileTools('memory')), MEMORY)
  t.same(names(profileTools('read')), names(OPERATIONS.filter((op) => !op.mutating && !op.admin)))
  t.same(names(profileTools('write')), names(OPERATIONS.filter((op) => !op.admin)))
  t.same(names(profileTools('admin')), names(OPERATIONS))
  t.same(names(profileTools('all')), names(OPERATIONS))
  t.ok(profileTools('read').length > 20 && profileTools('write').length > profileTools('read').length, 'read and write are real subsets')
  t.ok(
    profileTools('write').some((op) => op.mutating),
    'write adds mutating tools',
  )
})

t.test('admin tools appear only in admin and all', async (t) => {
  const adminTools = OPERATIONS.filter((op) => op.admin).map((op) => op.name)
  t.ok(adminTools.includes('create_token') && adminTools.includes('purge_trash') && adminTools.includes('register_oauth_client') && adminTools.includes('create_backup'))
  for (const profile of ['memory', 'read', 'write'] as const) {
    const held = new Set(names(profileTools(profile)))
    t.same(
      adminTools.filter((name) => held.has(name)),
      [],
      `${profile} holds no admin tool`,
    )
  }
})

t.test('the memory profile is at most 12 tools and 3,000 cl100k tokens of tools/list', async (t) => {
  const memory = profileTools('memory')
  t.ok(memory.length <= 12, `${memory.length} tools`)
  const listed = listTools(new Set(memory.map((tool) => tool.name)))
  t.same(names(listed), MEMORY)
  const tokens = countTokens(JSON.stringify({ tools: listed }))
  t.ok(tokens <= 3000, `${tokens} tokens`)
  for (const tool of listed) t.ok(tool.description.length > 40 && tool.description.length <= 320, `${tool.name}: a short description (${tool.description.length} chars)`)
  t.ok(countTokens(JSON.stringify({ tools: listTools() })) > 3 * tokens, 'the whole catalogue costs far more')
})

t.test('the listing leaves out the bounds every unbounded integer would carry', async (t) => {
  const search = listTools().find((tool) => tool.name === 'search')
  const walkDepth = (search?.inputSchema.properties as Record<string, Record<string, unknown>>).walk_depth
  t.same(walkDepth, { description: walkDepth?.description, type: 'integer' })
  t.notOk(JSON.stringify(listTools()).includes(String(Number.MAX_SAFE_INTEGER)))
})

t.test('--tools values: a profile, tool names, both, and what is refused', async (t) => {
  t.same(names(resolveToolSelection('memory').tools), MEMORY)
  t.equal(resolveToolSelection('memory').label, 'memory')
  const picked = resolveToolSelection(' search , get_page ')
  t.same(names(picked.tools), ['get_page', 'search'])
  t.equal(picked.label, 'search,get_page')
  t.same(names(resolveToolSelection('memory,list_tags').tools), [...MEMORY, 'list_tags'].sort(), 'a profile and a tool are joined')
  t.same(names(resolveToolSelection('all').tools), names(ALL_TOOLS.tools))
  for (const profile of TOOL_PROFILES) t.same(names(resolveToolSelection(profile).tools), names(profileTools(profile)))
  t.throws(() => resolveToolSelection('memory,drop_everything'), { errorClass: 'UsageError', code: 'unknown_tool', hint: /memory, read, write, admin, all/ })
  t.throws(() => resolveToolSelection('Memory'), { code: 'unknown_tool' }, 'names are exact')
  t.throws(() => resolveToolSelection('x', 'mcp.tools in config.json'), { message: /^mcp\.tools in config\.json names "x"/ })
  t.throws(() => resolveToolSelection(' , '), { code: 'tools_requires_value' })
})

function context(scopes: CallContext['scopes']): CallContext {
  return {
    brain: () => Promise.reject(new Error('no tool here should reach the database')),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    dryRun: false,
    remote: scopes !== null,
    scopes,
    remoteSlugPrefixes: [],
  }
}

t.test('a tool outside the profile is refused, whatever the scopes; inside it scopes still decide', async (t) => {
  const memory = resolveToolSelection('memory')
  for (const scopes of [null, ['read', 'write', 'admin']] as const) {
    const refused = await dispatchTool(context(scopes), 'create_token', { name: 'x' }, memory)
    t.equal(refused.result.isError, true)
    t.equal(refused.errorCode, 'tool_not_in_profile')
    t.match(refused.result.structuredContent, { error: { class: 'UsageError', code: 'tool_not_in_profile', message: /create_token .*memory/, hint: /tools\/list/ } })
  }
  const unknown = await dispatchTool(context(null), 'drop_everything', {}, memory)
  t.equal(unknown.errorCode, 'unknown_tool', 'a tool that exists nowhere is still unknown')
  const reader = await dispatchTool(context(['read']), 'put_page', { slug: 'notes/a', content: 'x' }, memory)
  t.equal(reader.errorCode, 'insufficient_scope', 'a profile never widens a token')
  const invalid = await dispatchTool(context(null), 'search', { not_an_argument: true }, memory)
  t.equal(invalid.errorCode, 'invalid_params', 'a tool in the profile is validated as before')
  const everything = await dispatchTool(context(['read']), 'create_token', { name: 'x' })
  t.equal(everything.errorCode, 'insufficient_scope', 'without a profile the whole catalogue is served')
})
