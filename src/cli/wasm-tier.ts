/**
 * Which WebAssembly compiler a command's process uses. The embedded database and the code parsers
 * are WebAssembly; V8 runs them first on its baseline compiler and recompiles the hot functions
 * with its optimizing one. Opening the database alone makes enough functions hot that the
 * recompiling takes about a second of CPU, which a command done in a second or two never earns
 * back: those run on the baseline compiler only. Commands that import, sync, serve or work jobs
 * run long enough for the optimized code to pay, and keep it.
 */
import { setFlagsFromString } from 'node:v8'

/** First words of commands that do bulk work or stay up. */
export const LONG_RUNNING: ReadonlySet<string> = new Set([
  'apply-migrations',
  'capture',
  'dream',
  'embed',
  'export',
  'extract',
  'import',
  'ingest',
  'models',
  'reconcile-links',
  'reindex',
  'serve',
  'service',
  'sync',
  'ui',
])

/** Whether a command line does bulk work or stays up; `jobs submit --wait` and `sources add --sync` do their work in this process too. */
export function runsLong(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  const options = end === -1 ? argv : argv.slice(0, end)
  const words = options.filter((a) => !a.startsWith('-'))
  const [first, second] = words
  if (first === undefined) return false
  if (LONG_RUNNING.has(first)) return true
  if (first === 'jobs') return second === 'work' || second === 'supervisor' || options.includes('--wait')
  return options.includes('--sync')
}

/**
 * A long-running process still recompiles what is hot, but only what stays hot: the default
 * budget also sends the functions that opening the database runs a few thousand times.
 */
const LONG_RUNNING_TIERING_BUDGET = 20_000_000

/**
 * What `BRAIN_WASM_TIER` asks for: `baseline` keeps every command on the baseline compiler (for
 * machines where processes live seconds, such as a test suite starting services by the hundred),
 * `optimizing` lets every command recompile, anything else leaves the choice to the command.
 */
export function tierFor(argv: readonly string[], requested: string | undefined): 'baseline' | 'optimizing' {
  if (requested === 'baseline' || requested === 'optimizing') return requested
  return runsLong(argv) ? 'optimizing' : 'baseline'
}

/** Called before any WebAssembly module is compiled in this process; later calls have no effect on it. */
export function chooseWasmTier(argv: readonly string[], requested?: string): void {
  setFlagsFromString(tierFor(argv, requested) === 'optimizing' ? `--wasm-tiering-budget=${LONG_RUNNING_TIERING_BUDGET}` : '--liftoff-only')
}
