#!/usr/bin/env node
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

const client = hookClient()
if (client) await client.main()
else await import('../dist/src/cli/entry.js')
