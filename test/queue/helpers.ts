import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../src/config/index.js'
import { NotAvailableError } from '../../src/errors/index.js'
import type { QueueTimings } from '../../src/queue/settings.js'
import type { JobName } from '../../src/queue/types.js'
import { memoryLogger, type Logger } from '../../src/util/logger.js'
import type { JobHandler } from '../../src/queue/handler.js'
import type { HandlerResolver } from '../../workers/registry.js'

/** The spec's 30 s / 5 s / 15 s durations shrunk so stall and eviction tests take milliseconds. */
export const FAST_TIMINGS: Partial<QueueTimings> = {
  evictAfterMs: 300,
  heartbeatMs: 100,
  livenessMs: 300,
  // Long on purpose: a worker that only noticed jobs by polling would time the tests out.
  pollMs: 60_000,
  progressThrottleMs: 0,
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-q-')), ...env } })
}

export function testLogger(): Logger & { lines: Array<{ level: string; message: string }> } {
  return memoryLogger()
}

/** Handlers by name; any other name fails as "not available", like a capability not landed. */
export function resolverOf(handlers: Partial<Record<JobName, JobHandler>>): HandlerResolver {
  return async (name) => {
    const handler = handlers[name]
    if (!handler) throw new NotAvailableError(`${name}_not_available`, `No ${name} handler in this test.`)
    return handler
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(25)
  }
}

/** A handler that resolves when its abort fires, with the abort reason as rejection. */
export const honoursAbort: JobHandler = (ctx) =>
  new Promise((_, reject) => {
    if (ctx.signal.aborted) reject(ctx.signal.reason)
    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true })
  })

/** A handler that never settles, whatever happens. */
export const ignoresAbort: JobHandler = () => new Promise(() => undefined)
