/**
 * Loaded into every test process by `scripts/test-profile.mjs` (through NODE_OPTIONS): counts
 * what a test file spends its time on and writes one JSON line per process when it exits.
 * Child processes are counted by program; timers of 100 ms or more that fire are counted as waits;
 * PGLite boots and PostgreSQL databases are counted by the test helpers
 * through the `brainTestProfile` global this sets up. Processes that are not test files
 * (the build, the cluster helper) record nothing.
 */
import childProcess from 'node:child_process'
import { appendFileSync, readFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { basename, join, resolve } from 'node:path'

const dir = process.env.BRAIN_TEST_PROFILE_DIR
// Files that share a process (scripts/test-batch.mjs) are counted together, under the name the
// runner reports them by: their paths joined by `+`.
const file = /test-batch\.mjs$/.test(process.argv[1] ?? '')
  ? process.argv
      .slice(2)
      .map((name) => resolve(name))
      .join('+')
  : (process.argv[1] ?? '')

if (dir && /\.test\.js$/.test(file)) {
  const started = Date.now()
  const counts = { children: {}, childMs: 0, waits: 0, waitMs: 0, pgliteBoots: 0, pgliteMs: 0, pgDatabases: 0, pgDatabaseMs: 0 }
  globalThis.brainTestProfile = {
    add(key, amount = 1) {
      counts[key] = (counts[key] ?? 0) + amount
    },
  }

  const label = (command, args) => {
    const program = basename(String(command))
    if (program === 'node' || program === basename(process.execPath)) {
      const script = (args ?? []).find((a) => typeof a === 'string' && !a.startsWith('-'))
      return script ? `node ${basename(script)}` : 'node'
    }
    return program
  }
  const note = (command, args, child) => {
    const name = label(command, args)
    counts.children[name] = (counts.children[name] ?? 0) + 1
    const t0 = Date.now()
    child?.once?.('exit', () => (counts.childMs += Date.now() - t0))
    return child
  }
  for (const method of ['spawn', 'execFile']) {
    const original = childProcess[method]
    childProcess[method] = function (command, args, ...rest) {
      return note(command, Array.isArray(args) ? args : [], original.call(this, command, args, ...rest))
    }
  }
  for (const method of ['spawnSync', 'execFileSync']) {
    const original = childProcess[method]
    childProcess[method] = function (command, args, ...rest) {
      const t0 = Date.now()
      try {
        return original.call(this, command, args, ...rest)
      } finally {
        const name = label(command, Array.isArray(args) ? args : [])
        counts.children[name] = (counts.children[name] ?? 0) + 1
        counts.childMs += Date.now() - t0
      }
    }
  }
  syncBuiltinESMExports()

  const originalSetTimeout = globalThis.setTimeout
  globalThis.setTimeout = function (fn, ms, ...rest) {
    if (typeof ms !== 'number' || ms < 100 || typeof fn !== 'function') return originalSetTimeout.call(this, fn, ms, ...rest)
    // Counted when it fires: a guard timer cleared before its time was never waited for.
    return originalSetTimeout.call(
      this,
      (...fnArgs) => {
        counts.waits++
        counts.waitMs += ms
        return fn(...fnArgs)
      },
      ms,
      ...rest,
    )
  }

  process.once('exit', () => {
    // utime, stime, cutime, cstime in clock ticks (100 a second on Linux): this process and the
    // children it has reaped, so a file's CPU can be read on a machine that is busy.
    let cpuMs = null
    try {
      const fields = readFileSync('/proc/self/stat', 'utf8')
        .replace(/^.*\) /, '')
        .split(' ')
      cpuMs = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
    } catch {
      // Not Linux: wall time only.
    }
    const line = { file, wallMs: Date.now() - started, cpuMs, ...counts }
    try {
      appendFileSync(join(dir, `${process.pid}.json`), JSON.stringify(line) + '\n')
    } catch {
      // Profiling never fails a test.
    }
  })
}
