import { UsageError } from '../errors/index.js'
import { TOOLS } from './catalogue.js'
import type { Operation } from './operation.js'

/** The named tool profiles an MCP session may serve, smallest first. */
export const TOOL_PROFILES = ['memory', 'read', 'write', 'admin', 'all'] as const
export type ToolProfileName = (typeof TOOL_PROFILES)[number]

/**
 * Which tools a profile holds, from what each operation declares: `memory` is tagged on the
 * operation; `read` never changes the brain; `write` adds the changes a non-admin token may make;
 * `admin` and `all` are the whole catalogue.
 */
const MEMBERSHIP: Record<ToolProfileName, (tool: Operation) => boolean> = {
  memory: (tool) => tool.memory === true,
  read: (tool) => !tool.mutating && !tool.admin,
  write: (tool) => !tool.admin,
  admin: () => true,
  all: () => true,
}

/** The tools one MCP session lists and may call. */
export interface ToolSelection {
  /** What was asked for, as given: a profile name or a comma-separated list. */
  label: string
  /** Catalogue order. */
  tools: readonly Operation[]
  names: ReadonlySet<string>
}

function isProfile(word: string): word is ToolProfileName {
  return (TOOL_PROFILES as readonly string[]).includes(word)
}

export function profileTools(profile: ToolProfileName): Operation[] {
  return TOOLS.filter(MEMBERSHIP[profile])
}

/** The whole catalogue: what a session serves when nothing narrows it. */
export const ALL_TOOLS: ToolSelection = { label: 'all', tools: TOOLS, names: new Set(TOOLS.map((tool) => tool.name)) }

/**
 * Reads `--tools` or `mcp.tools`: a profile name, or a comma-separated list of tool and profile
 * names whose tools are joined. `from` names where the value came from, for the error.
 */
export function resolveToolSelection(spec: string, from = '--tools'): ToolSelection {
  const words = spec
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '')
  const hint = `Name a profile (${TOOL_PROFILES.join(', ')}) or tools from tools/list, comma-separated: memory, or search,get_page.`
  if (words.length === 0) throw new UsageError('tools_requires_value', `${from} names no profile and no tool.`, { hint })
  const wanted = new Set<string>()
  for (const word of words) {
    if (isProfile(word)) for (const tool of profileTools(word)) wanted.add(tool.name)
    else if (ALL_TOOLS.names.has(word)) wanted.add(word)
    else throw new UsageError('unknown_tool', `${from} names ${JSON.stringify(word).slice(0, 200)}, which is neither a tool profile nor a tool.`, { hint })
  }
  return { label: words.join(','), tools: TOOLS.filter((tool) => wanted.has(tool.name)), names: wanted }
}
