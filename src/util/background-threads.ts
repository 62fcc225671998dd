import { availableParallelism } from 'node:os'

/** The size of V8's background thread pool when node is not told otherwise. */
const NODE_DEFAULT_POOL_SIZE = 4

/**
 * V8's background threads (its optimizing compiler, the garbage collector's helpers) for a machine
 * of `cores`: one core stays with the main thread, which runs every statement of the embedded
 * engine. Node's four threads on two cores recompiled the WebAssembly that a new service's first
 * import makes hot on the main thread's core: that import took a fifth longer, and packs of a
 * warmed-up process were no faster with four (bench/README.md).
 */
export function backgroundThreadPoolSize(cores: number): number {
  return Math.max(1, Math.min(NODE_DEFAULT_POOL_SIZE, cores - 1))
}

/**
 * Node arguments for a long-running brain process that this one starts (the service, a supervised
 * worker); none when the environment's NODE_OPTIONS already sizes the pool.
 */
export function longRunningNodeArgs(env: Readonly<Record<string, string | undefined>>, cores: number = availableParallelism()): string[] {
  if (/--v8-pool-size\b/.test(env.NODE_OPTIONS ?? '')) return []
  return [`--v8-pool-size=${backgroundThreadPoolSize(cores)}`]
}
