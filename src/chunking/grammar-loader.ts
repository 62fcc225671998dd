/**
 * Lazy, cached access to web-tree-sitter parsers.
 *
 * web-tree-sitter is imported dynamically on first use so that CLI calls which never chunk
 * code do not pay for loading the runtime. Each grammar is loaded once per process and
 * gets one Parser; parsing is synchronous, so one Parser per grammar is safe to share
 * between concurrent chunkCode calls.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Language, Parser } from 'web-tree-sitter'
import type { GrammarLocation } from './languages.js'

type TreeSitter = typeof import('web-tree-sitter')

const require = createRequire(import.meta.url)

type WasmModule = Parameters<TreeSitter['Language']['loadSync']>[0]
/** The WebAssembly global; the project's lib settings do not declare it. */
const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule } }).WebAssembly

let runtime: Promise<TreeSitter> | null = null
const parsers = new Map<string, Promise<Parser>>()

function loadRuntime(): Promise<TreeSitter> {
  if (runtime === null) {
    const pending = (async () => {
      const mod = await import('web-tree-sitter')
      await mod.Parser.init()
      return mod
    })()
    // A failed init must not poison every later call in a long-lived process.
    pending.catch(() => {
      if (runtime === pending) runtime = null
    })
    runtime = pending
  }
  return runtime
}

/** Absolute path of a grammar's wasm, resolved from the installed package. */
function resolveGrammarPath(grammar: GrammarLocation): string {
  return require.resolve(grammar.specifier)
}

/**
 * Compiles the grammar synchronously and links it with loadSync. The asynchronous
 * Language.load queues behind V8's background tier-up of grammars loaded earlier: loading
 * Kotlin right after Swift took seconds that way, against tens of milliseconds here.
 */
async function createParser(grammar: GrammarLocation): Promise<Parser> {
  const ts = await loadRuntime()
  const bytes = await readFile(resolveGrammarPath(grammar))
  const language: Language = ts.Language.loadSync(new wasm.Module(bytes))
  const parser = new ts.Parser()
  parser.setLanguage(language)
  return parser
}

/** The shared parser for a grammar, loading the grammar on first request. */
export function getParser(grammar: GrammarLocation): Promise<Parser> {
  let pending = parsers.get(grammar.specifier)
  if (pending === undefined) {
    pending = createParser(grammar)
    parsers.set(grammar.specifier, pending)
    pending.catch(() => {
      if (parsers.get(grammar.specifier) === pending) parsers.delete(grammar.specifier)
    })
  }
  return pending
}
