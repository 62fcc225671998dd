import type { z } from 'zod'
import type { OperationContext } from './context.js'

/** One entry of the catalogue: a zod schema for its arguments and the operation it runs. */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string
  /** Written for an agent choosing between tools: what it does, when to use it, what it returns. */
  description: string
  input: S
  /** Mutating tools need the `write` scope over HTTP. */
  mutating: boolean
  /** Returns a JSON object; it becomes both the text content and the structured content. */
  run(ctx: OperationContext, args: z.output<S>): Promise<Record<string, unknown>>
}

export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition {
  return definition as unknown as ToolDefinition
}
