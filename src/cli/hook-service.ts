/**
 * An agent's hook answered inside the resident service, over its shared brains: what the hook
 * process would do with a service listening, without the hook process loading any of it.
 */
import { existsSync } from 'node:fs'
import { launcherPath } from '../agents/index.js'
import { brainHome, parseFlag, type Config } from '../config/index.js'
import { isThinClient } from '../config/file-config.js'
import { isBrainError } from '../errors/index.js'
import type { BrainHost, HookAnswer, HookRequest } from '../service/index.js'
import { callOperation } from './call-operation.js'
import { answerHook } from './hook.js'

/** Null when the hook process must answer as if no service listened: it wants none, or its brain is remote. */
export function answerHookInService(request: HookRequest, input: () => Promise<string>, host: BrainHost, signal: AbortSignal): Promise<HookAnswer | null> {
  const { env } = request
  if (parseFlag(env.BRAIN_NO_SERVICE) || isThinClient(brainHome(env))) return Promise.resolve(null)
  return answerHook(request.args, env, {
    input,
    call: async (call, cwd) => {
      try {
        return { ok: true, result: await callOperation({ ...call, cwd, env }, { host, signal }), via: 'service' }
      } catch (err) {
        // As a call over the socket reports it: the error's code and message.
        const code = isBrainError(err) ? err.code : 'internal_error'
        return { ok: false, why: `${code}: ${err instanceof Error ? err.message : String(err)}`, via: 'service' }
      }
    },
    cwd: request.cwd,
  })
}

/**
 * How often the service runs the hooks' recall before it calls itself warm. A service's first
 * recalls take 5 to 40 times as long as later ones (its modules load, each statement's catalog
 * entries are read once, the hot WebAssembly is recompiled); measured on a brain of a few pages,
 * they level off after about this many.
 */
const WARM_RUNS = 20

/**
 * Runs what the agents' hooks run (recall with a session, then session start) over the open brain,
 * in a session of its own that it forgets again, so a new service answers its first hooks as
 * fast as its later ones.
 */
export async function warmHookPath(host: BrainHost, config: Config, env: Record<string, string>): Promise<void> {
  // Only where an agent was installed from this home (its launcher is written then): a service
  // no hook calls spares the half second of CPU at every start.
  if (config.remote !== null || !existsSync(launcherPath(config.home))) return
  const db = await host.database(config.engine)
  const { rows } = await db.query<{ title: string }>(`SELECT title FROM pages WHERE page_kind = 'markdown' ORDER BY updated_at DESC LIMIT 5`)
  const text = rows.length > 0 ? `${rows.map((r) => r.title).join('. ')}.` : 'warm up'
  const session = `brain-service-warm-up-${process.pid}`
  const call = (operation: string, args: Record<string, unknown>): Promise<unknown> => callOperation({ operation, args: { ...args, cwd: config.home }, cwd: config.home, env }, { host })
  for (let i = 0; i < WARM_RUNS; i++) {
    await call('recall', { text, session_id: session })
    await call('start_session', { session_id: session, fresh: true })
  }
}
