import { z } from 'zod'
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

let listed: ListedTool[] | undefined

/** The tools/list answer; needs no database. */
export function listTools(): ListedTool[] {
  listed ??= TOOLS.map((tool) => {
    const { $schema: _schema, ...schema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: { ...schema, type: 'object' as const },
      annotations: { readOnlyHint: !tool.mutating, destructiveHint: DESTRUCTIVE.has(tool.name) },
    }
  })
  return listed
}
