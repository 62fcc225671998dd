#!/usr/bin/env node
// CommonJS (bin/package.json): a relayed command and a hook then start without node's ES-module
// loader, which costs more than everything else such a command does in this process.
const { statSync } = require('node:fs')
const { join } = require('node:path')

const dist = join(__dirname, '..', 'dist')
const argv = process.argv.slice(2)

/**
 * Whether the bundle (scripts/bundle.mjs) was made from the current compiled build: a compile after
 * the last bundle makes it stale, and then the compiled modules run.
 */
function bundleIsCurrent() {
  const mtime = (path) => statSync(join(dist, path), { throwIfNoEntry: false })?.mtimeMs
  const bundled = mtime('bundle/entry.js')
  // scripts/compile.mjs stamps .compiled; a tsc build of its own writes .tsbuildinfo.
  const compiled = [mtime('.compiled'), mtime('.tsbuildinfo')].filter((t) => t !== undefined)
  return bundled !== undefined && compiled.length > 0 && bundled >= Math.max(...compiled)
}

function fail(err) {
  process.stderr.write(`brain: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
}

async function run() {
  const bundled = bundleIsCurrent()
  // An agent's hook, on every prompt: the bundled hook client alone. Without a current bundle the
  // CLI runs the hook.
  if (bundled && argv[0] === 'hook') return require(join(dist, 'bundle', 'hook-client.cjs')).main()
  if (bundled) {
    // The version, and the relay to the resident service for most commands; neither does anything
    // for a command run in this process.
    const start = require(join(dist, 'bundle', 'forward.cjs'))
    const code = start.versionCommand() ?? (await start.relayCommand())
    if (code !== null) return process.stdout.write('', () => process.exit(code))
  }
  await import(join(dist, bundled ? 'bundle/entry.js' : 'src/cli/entry.js'))
}

run().catch(fail)
