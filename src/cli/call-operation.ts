/**
 * One operation of the catalogue called by name with its JSON arguments, in this process: what
 * the resident service runs for an operation call on its socket, and what an agent hook runs
 * itself when no service is there. Arguments are checked by the operation's schema, as a tool
 * call's are; the result is the tool's JSON. A thin-client install calls the remote tool.
 */
import type { Database } from '../db/index.js'
import { UsageError } from '../errors/index.js'
import type { Operation, CallContext } from '../operations/index.js'
import type { BrainHost, OperationCall } from '../service/index.js'

/** Operations a hook calls, loaded on their own: the whole catalogue would cost the hook's start-up time. */
const LIGHT: Record<string, () => Promise<Operation | undefined>> = {
  recall: async () => (await import('../operations/memory.js')).memoryTools.find((o) => o.name === 'recall'),
  start_session: async () => (await import('../operations/memory.js')).memoryTools.find((o) => o.name === 'start_session'),
  submit_job: async () => (await import('../operations/jobs.js')).submitJobTool,
}

async function findOperation(name: string): Promise<Operation> {
  const light = Object.hasOwn(LIGHT, name) ? await LIGHT[name]!() : undefined
  if (light) return light
  const { findTool } = await import('../operations/index.js')
  const tool = findTool(name)
  if (!tool) throw new UsageError('unknown_tool', `There is no tool named ${JSON.stringify(name).slice(0, 200)}.`, { hint: 'Run `brain tools list` for the catalogue.' })
  return tool
}

interface CallIn {
  /** The resident service's shared brains; without it the brain is opened for this call and closed after. */
  host?: BrainHost
  signal?: AbortSignal
  /** Opened for this call alone, in a process that exits after it (a hook); see OpenOptions.brief. */
  brief?: boolean
}

export async function callOperation(call: OperationCall, options: CallIn = {}): Promise<Record<string, unknown>> {
  const { loadConfig } = await import('../config/index.js')
  const config = await loadConfig({ env: call.env })
  // An embedded engine's WebAssembly compiles while the operation's modules load.
  if (options.brief && !options.host && config.remote === null) await (await import('../db/open.js')).prepareToOpen(config.engine)
  const operation = await findOperation(call.operation)
  const parsed = operation.input.safeParse(call.args)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError('invalid_params', `Invalid arguments for ${call.operation}: ${issue ? `${issue.path.join('.') || '(arguments)'}: ${issue.message}` : 'not accepted'}.`)
  }
  const [{ toSnakeCaseJson }, { silentLogger }] = await Promise.all([import('../util/json-shape.js'), import('../util/logger.js')])
  if (config.remote !== null) {
    const { callRemoteTool } = await import('../mcp/remote-client.js')
    // The working directory is this machine's; the remote brain's sources are not under it.
    const { cwd: _local, ...remoteArgs } = parsed.data as Record<string, unknown>
    return (await callRemoteTool(config.remote, operation.name, remoteArgs)) as Record<string, unknown>
  }
  const host = options.host
  let opened: Promise<Database> | undefined
  const database = (): Promise<Database> =>
    (opened ??= host ? host.database(config.engine) : import('../db/open.js').then(({ openDatabase }) => openDatabase(config.engine, { brief: options.brief === true })))
  const ctx: CallContext = {
    brain: async () => ({ db: await database(), config }),
    config: async () => config,
    logger: silentLogger,
    dryRun: false,
    remote: false,
    scopes: null,
    remoteSlugPrefixes: [],
    ...(options.signal ? { signal: options.signal } : {}),
  }
  try {
    return toSnakeCaseJson(await operation.run(ctx, parsed.data)) as Record<string, unknown>
  } finally {
    if (opened && !host) await (await opened.catch(() => null))?.close()
  }
}
