/**
 * An agent's hook answered inside the resident service, over its shared brains: what the hook
 * process would do with a service listening, without the hook process loading any of it.
 */
import { brainHome, parseFlag } from '../config/index.js'
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
