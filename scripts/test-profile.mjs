#!/usr/bin/env node
/**
 * Runs the test suite (or the files given) through scripts/test.sh and prints where the time
 * goes: each test file's wall time, its share of the summed file time, its CPU (its own and its
 * reaped children's, which a busy machine does not inflate), and what it did: child processes
 * by program, PGLite boots, PostgreSQL databases, Chromium starts, and timers of 100 ms or more.
 *
 *   node scripts/test-profile.mjs [--top 25] [--out profile.md] [--json profile.json] [files…]
 *
 * Any other arguments are test files, as for `npm test -- <files>`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const relative = (file) =>
  file
    .split('+')
    .map((name) => (name.startsWith(`${root}/`) ? name.slice(root.length + 1) : name))
    .join('+')
const args = process.argv.slice(2)
let top = 25
let out = null
let jsonOut = null
const files = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top') top = Number(args[++i])
  else if (args[i] === '--out') out = args[++i]
  else if (args[i] === '--json') jsonOut = args[++i]
  else files.push(args[i])
}

const profileDir = mkdtempSync(join(tmpdir(), 'brain-test-profile-'))
const hook = pathToFileURL(join(root, 'scripts', 'test-profile-hook.mjs')).href
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
/** Busy and total CPU ticks of the whole machine (Linux), to tell how full the cores were. */
const cpuTicks = () => {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
    const ticks = fields.map(Number)
    const idle = ticks[3] + (ticks[4] ?? 0)
    const total = ticks.reduce((a, b) => a + b, 0)
    return { busy: total - idle, total }
  } catch {
    return null
  }
}
const ticksBefore = cpuTicks()
const loadBefore = load()
const started = Date.now()
let peakLoad = 0
const sampler = setInterval(() => (peakLoad = Math.max(peakLoad, loadavg()[0])), 5000)

const times = new Map()
let closing = ''
const status = await new Promise((resolve) => {
  const child = spawn('bash', [join(root, 'scripts', 'test.sh'), ...files], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BRAIN_TEST_PROFILE_DIR: profileDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim() },
  })
  let pending = ''
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    pending += chunk.toString()
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      const match = /^(?:not )?ok \d+ - (\S+\.test\.js) # time=([\d.]+)ms/.exec(line)
      if (match) times.set(relative(match[1]), Number(match[2]))
      if (line.startsWith('tests: ')) closing = line
    }
  })
  child.on('close', (code) => resolve(code ?? 1))
})
clearInterval(sampler)
const wallS = (Date.now() - started) / 1000
const ticksAfter = cpuTicks()
const busyShare = ticksBefore && ticksAfter ? (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total) : null

const counted = new Map()
for (const name of readdirSync(profileDir)) {
  for (const line of readFileSync(join(profileDir, name), 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line)
    const key = relative(entry.file)
    const seen = counted.get(key)
    // A test file that re-runs itself (a child test process) adds to its parent's counts.
    if (!seen) counted.set(key, entry)
    else {
      for (const k of ['childMs', 'waits', 'waitMs', 'pgliteBoots', 'pgliteMs', 'pgDatabases', 'pgDatabaseMs']) seen[k] += entry[k] ?? 0
      for (const [program, n] of Object.entries(entry.children)) seen.children[program] = (seen.children[program] ?? 0) + n
      if (entry.cpuMs !== null) seen.cpuMs = (seen.cpuMs ?? 0) + entry.cpuMs
    }
  }
}
rmSync(profileDir, { recursive: true, force: true })

const rows = [...times.entries()].map(([file, ms]) => ({ ...(counted.get(file) ?? {}), file, ms }))
const sum = rows.reduce((s, r) => s + r.ms, 0)
const cpuSum = rows.reduce((s, r) => s + (r.cpuMs ?? 0), 0)
rows.sort((a, b) => b.ms - a.ms)
const seconds = (ms) => (ms / 1000).toFixed(1)
const children = (c) =>
  Object.entries(c ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([p, n]) => `${n} ${p}`)
    .join(', ')
const table = [
  `suite: ${wallS.toFixed(0)} s wall, ${rows.length} files, file time summed ${seconds(sum)} s, CPU summed ${seconds(cpuSum)} s; ${closing || 'no closing line'}`,
  `load average (1/5/15 min) before: ${loadBefore}; after: ${load()}; peak 1-min: ${peakLoad.toFixed(2)}; cores busy ${busyShare === null ? '–' : `${(100 * busyShare).toFixed(0)} %`} of the run`,
  '',
  '| # | file | wall s | share | CPU s | children (top) | PGLite boots | PG dbs | Chromium | waits ≥100 ms (s) |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows
    .slice(0, top)
    .map(
      (r, i) =>
        `| ${i + 1} | ${r.file.replace(/^dist\//, '').replace(/\.test\.js$/, '')} | ${seconds(r.ms)} | ${((100 * r.ms) / sum).toFixed(1)} % | ${r.cpuMs == null ? '–' : seconds(r.cpuMs)} | ${children(r.children)} | ${r.pgliteBoots ?? '–'} | ${r.pgDatabases ?? '–'} | ${r.children?.chromium ?? 0} | ${r.waits ?? 0} (${seconds(r.waitMs ?? 0)}) |`,
    ),
].join('\n')
console.log(`\n${table}`)
if (out) writeFileSync(out, table + '\n')
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ wallS, loadBefore, peakLoad, busyShare, closing, rows }, null, 2))
process.exit(status)
