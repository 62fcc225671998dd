#!/usr/bin/env node
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'

/** An agent's hook, on every prompt: the CommonJS hook client alone, without the ES-module CLI. */
function hookClient() {
  if (process.argv[2] !== 'hook') return null
  try {
    return createRequire(import.meta.url)('../dist/src/cli/hook-client.cjs')
  } catch {
    // A build from before the client: the CLI runs the hook.
    return null
  }
}

/**
 * The bundled CLI (scripts/bundle.mjs) when it was made from the current compiled build: the same
 * code in a few files instead of hundreds. A compile after the last bundle makes it stale, and
 * then the compiled modules run.
 */
function entry() {
  const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs
  const bundled = mtime('../dist/bundle/entry.js')
  const compiled = mtime('../dist/.tsbuildinfo')
  return bundled !== undefined && compiled !== undefined && bundled >= compiled ? '../dist/bundle/entry.js' : '../dist/src/cli/entry.js'
}

const client = hookClient()
if (client) await client.main()
else await import(entry())
