/** Exit code of a worker that shut itself down because its memory watchdog fired. */
export const EXIT_MEMORY_LIMIT = 75

type LikelyCause = 'oom_or_external_kill' | 'graceful_shutdown' | 'runtime_error' | 'memory_limit' | 'clean_exit' | 'unknown'

/**
 * What most likely ended a worker process. SIGKILL is what the kernel's OOM killer sends (or an
 * operator's kill -9); SIGTERM is a requested shutdown (the worker re-raises it after cleaning
 * up); exit code 1 is an uncaught error. Shells report death by signal N as 128 + N.
 */
export function likelyCause(code: number | null, signal: NodeJS.Signals | null): LikelyCause {
  if (signal === 'SIGKILL' || code === 137) return 'oom_or_external_kill'
  if (signal === 'SIGTERM' || signal === 'SIGINT' || code === 143 || code === 130) return 'graceful_shutdown'
  if (code === 1) return 'runtime_error'
  if (code === EXIT_MEMORY_LIMIT) return 'memory_limit'
  if (code === 0) return 'clean_exit'
  return 'unknown'
}
