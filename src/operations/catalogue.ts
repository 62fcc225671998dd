import * as z from 'zod'
import { backupTools } from './backup.js'
import { codeTools } from './code.js'
import { embedChunksTool } from './embed.js'
import { reindexSearchTool } from './reindex.js'
import { runAutopilotCycleTool } from './dream.js'
import { deriveLinkTools } from './derive-links.js'
import { frontmatterTools } from './frontmatter.js'
import { jobTools } from './jobs.js'
import { historyTools } from './history.js'
import { trashTools } from './trash.js'
import { linkTools } from './links.js'
import { memoryTools } from './memory.js'
import { pageTools } from './pages.js'
import { captureTool } from './capture.js'
import { searchTools } from './search.js'
import { answerTools } from './answers.js'
import { systemTools } from './system.js'
import { operateTools } from './operate.js'
import { oauthClientTools } from './oauth-clients.js'
import { tagTools } from './tags.js'
import { exportTools } from './export.js'
import type { Operation } from './operation.js'

/** Every operation: served as MCP tools over stdio and HTTP, as commands where they have a CLI shape. */
export const OPERATIONS: readonly Operation[] = [
  ...pageTools,
  captureTool,
  ...historyTools,
  ...trashTools,
  ...searchTools,
  ...answerTools,
  ...codeTools,
  ...linkTools,
  ...deriveLinkTools,
  ...memoryTools,
  ...jobTools,
  embedChunksTool,
  reindexSearchTool,
  runAutopilotCycleTool,
  ...systemTools,
  ...frontmatterTools,
  ...tagTools,
  ...exportTools,
  ...operateTools,
  ...oauthClientTools,
  ...backupTools,
]

/** The MCP view of the catalogue: each operation is a tool of the same name. */
export const TOOLS = OPERATIONS

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]))

export function findTool(name: string): Operation | undefined {
  return byName.get(name)
}

export interface ListedTool {
  name: string
  description: string
  inputSchema: { type: 'object'; [key: string]: unknown }
  annotations: { readOnlyHint: boolean; destructiveHint: boolean }
}

const DESTRUCTIVE = new Set(['delete_page', 'purge_trash'])

/**
 * Drops the bounds zod gives every unbounded integer (±2^53−1): they say nothing `"type":
 * "integer"` does not, and each costs an agent tokens in every tools/list it reads.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)) continue
    out[key] = withoutSafeIntegerBounds(value)
  }
  return out
}

let listed: ListedTool[] | undefined

/** The tools/list answer, of the whole catalogue or of the named tools; needs no database. */
export function listTools(names?: ReadonlySet<string>): ListedTool[] {
  listed ??= TOOLS.map((tool) => {
    const { $schema: _schema, ...schema } = withoutSafeIntegerBounds(z.toJSONSchema(tool.input, { io: 'input' })) as Record<string, unknown>
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: { ...schema, type: 'object' as const },
      annotations: { readOnlyHint: !tool.mutating, destructiveHint: DESTRUCTIVE.has(tool.name) },
    }
  })
  return names === undefined ? listed : listed.filter((tool) => names.has(tool.name))
}
