import { z } from 'zod'
import { jobTools } from './tools/jobs.js'
import { pageTools } from './tools/pages.js'
import { searchTools } from './tools/search.js'
import { systemTools } from './tools/system.js'
import type { ToolDefinition } from './tool.js'

/** The one tool catalogue served over stdio and HTTP and used by thin clients. */
export const TOOLS: readonly ToolDefinition[] = [...pageTools, ...searchTools, ...jobTools, ...systemTools]

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]))

export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(name)
}

export interface ListedTool {
  name: string
  description: string
  inputSchema: { type: 'object'; [key: string]: unknown }
  annotations: { readOnlyHint: boolean; destructiveHint: boolean }
}

let listed: ListedTool[] | undefined

/** The tools/list answer; needs no database. */
export function listTools(): ListedTool[] {
  listed ??= TOOLS.map((tool) => {
    const { $schema: _schema, ...schema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: { ...schema, type: 'object' as const },
      annotations: { readOnlyHint: !tool.mutating, destructiveHint: tool.name === 'delete_page' },
    }
  })
  return listed
}
