/**
 * How a hook reaches the brain for one operation, in the order that answers soonest: the
 * resident service when one listens; else this process, which opens the brain for the one call
 * and then starts the service detached for the next hook; else, when the brain is held by a
 * service that is just starting, that service once it listens. A hook never waits past its
 * deadline.
 */
import type { BrainEnv } from '../config/index.js'
import { parseFlag } from '../config/env.js'
import { isThinClient } from '../config/file-config.js'
import { brainHome } from '../config/home.js'
import type { OperationCall, Reply } from '../service/index.js'

export interface BrainCall {
  operation: string
  args: Record<string, unknown>
}

export type CallResult = { ok: true; result: unknown; via: string } | { ok: false; why: string; via: string }

/** What a call became by the deadline: its value, or null when the deadline came first. */
function beforeDeadline<T>(work: Promise<T>, deadline: Promise<void>): Promise<T | null> {
  return Promise.race([work, deadline.then(() => null)])
}

/** A service of another build that stops so this one can start: its pid. */
interface Restarting {
  restarting: number
}

function fromReply(reply: Reply | null, via: string): CallResult | Restarting {
  if (reply === null) return { ok: false, why: 'the brain service closed the connection', via }
  if (reply.kind === 'result') return reply.ok ? { ok: true, result: reply.result, via } : { ok: false, why: `${reply.error.code}: ${reply.error.message}`, via }
  if (reply.kind === 'skew') return reply.restarting ? { restarting: reply.pid } : { ok: false, why: reply.message, via }
  return { ok: false, why: `unexpected ${reply.kind} reply`, via }
}

function errorText(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  return `${typeof code === 'string' ? `${code}: ` : ''}${err instanceof Error ? err.message : String(err)}`
}

export async function callBrain(env: BrainEnv, call: BrainCall, options: { cwd: string; deadline: Promise<void> }): Promise<CallResult> {
  const home = brainHome(env)
  const forwardedEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
  const full: OperationCall = { ...call, cwd: options.cwd, env: forwardedEnv }
  // Only the socket and the protocol: starting a service is client.js's, loaded when one is needed.
  const [{ tryConnect, callOperationOn }, { servicePaths }] = await Promise.all([import('../service/call.js'), import('../service/paths.js')])
  const client = () => import('../service/client.js')
  const paths = servicePaths(home)
  const overService = async (socket: Awaited<ReturnType<typeof tryConnect>>, via: string): Promise<CallResult | Restarting> => {
    if (socket === null) return { ok: false, why: 'no brain service', via }
    const reply = await beforeDeadline(callOperationOn(socket, full), options.deadline)
    if (reply === null) {
      socket.destroy()
      return { ok: false, why: 'the brain service did not answer in time', via }
    }
    return fromReply(reply, via)
  }
  // A thin client answers from here through its server, and never starts a local service.
  const noService = parseFlag(env.BRAIN_NO_SERVICE) || isThinClient(home)
  if (!noService) {
    const answered = await overService(await tryConnect(paths.socket), 'service')
    if ('restarting' in answered) {
      // A service of another build stops for this one: once it is gone, this process may open the brain.
      const { waitForExit } = await client()
      if ((await beforeDeadline(waitForExit(answered.restarting), options.deadline)) !== true) return { ok: false, why: 'the old brain service did not stop in time', via: 'service' }
    } else if (answered.ok || answered.why !== 'no brain service') return answered
  }
  // No service: this process answers, with the compiler that pays for one short call.
  const { chooseWasmTier } = await import('./wasm-tier.js')
  chooseWasmTier([call.operation])
  const { callOperation } = await import('./call-operation.js')
  let inProcess: CallResult
  try {
    const result = await beforeDeadline(callOperation(full, { brief: true }), options.deadline)
    inProcess = result === null ? { ok: false, why: 'the brain did not answer in time', via: 'in-process' } : { ok: true, result, via: 'in-process' }
  } catch (err) {
    const locked = (err as { code?: unknown } | null)?.code === 'brain_locked'
    if (!locked || noService) return { ok: false, why: errorText(err), via: 'in-process' }
    // A service opening the brain holds it: ask that service once it listens.
    const { connectOrStart } = await client()
    const socket = await beforeDeadline(connectOrStart(paths, forwardedEnv), options.deadline).catch(() => null)
    const answered = await overService(socket, 'service after start')
    return 'restarting' in answered ? { ok: false, why: 'the brain service is restarting', via: 'service after start' } : answered
  }
  if (!noService) {
    // Started after the brain was closed, so the service never waits for this process's lock.
    ;(await client()).startServiceDetached(home, forwardedEnv)
    return { ...inProcess, via: 'in-process, service started' }
  }
  return inProcess
}
