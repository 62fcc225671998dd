#!/usr/bin/env node
/**
 * Runs test files, each in its own node process, a few at a time, and reports them as TAP: each
 * file's own output indented under `# Subtest: <file>`, then `ok N - <file> # time=…ms` (or
 * `not ok`), as tap's runner prints them with its TAP reporter.
 *
 *   node scripts/run-tests.mjs [--jobs 2] [--timeout 600] [--node-arg <arg>]… <files…>
 *
 * Why not tap's own runner: it starts every test process with its process tracker, whose loader
 * thread reads each module the test loads a second time and measures its lines, for coverage this
 * suite does not collect. That cost about a second of CPU per test file. The test files still use
 * tap (its assertions, its subtests, its per-file timeout through TAP_TIMEOUT); only the process
 * that starts them is this one.
 *
 * Files run in the order given, `--jobs` at a time; a file marked as mostly waiting runs in a lane
 * of its own beside them (see WAITING_LANE), and files marked as sharing a process run a few to a
 * process (see SHARES_A_PROCESS), reported together under their names joined by `+`.
 *
 * A file passes when its process exits with status 0 and its output ends the plan it printed
 * (`1..N` at the top level). A file still running at the timeout gets SIGALRM, on which tap
 * prints what it was waiting for, then SIGKILL ten seconds later.
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const BATCH = fileURLToPath(new URL('test-batch.mjs', import.meta.url))

const args = process.argv.slice(2)
let jobs = 2
let timeoutS = 600
const nodeArgs = []
const files = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--jobs') jobs = Math.max(1, Number(args[++i]))
  else if (args[i] === '--timeout') timeoutS = Number(args[++i])
  else if (args[i] === '--node-arg') nodeArgs.push(args[++i])
  else if (args[i].startsWith('--node-arg=')) nodeArgs.push(args[i].slice('--node-arg='.length))
  else files.push(args[i])
}

const started = Date.now()
const running = new Set()
let failed = 0
let reported = 0
/** Failed files, recapped after the plan so a reader of only the log's tail still sees them. */
const failures = []
/** Results in completion order; each is printed whole, so two files never interleave. */
const print = (text) => process.stdout.write(text)

/** The top-level plan line of a file's TAP, if it printed one. */
const topLevelPlan = (output) => /^1\.\.\d+/m.test(output)

function runFile(entry, jobId) {
  const { files: batch, childId } = entry
  const file = batch.join('+')
  return new Promise((resolve) => {
    const fileStarted = performance.now()
    const child = spawn(process.execPath, [...nodeArgs, ...(batch.length > 1 ? [BATCH] : []), ...batch], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TAP: '1', TAP_TIMEOUT: String(timeoutS), TAP_CHILD_ID: String(childId), TAP_JOB_ID: String(jobId) },
    })
    running.add(child)
    const chunks = []
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    let timedOut = false
    let killTimer = null
    // tap's own per-file timer (TAP_TIMEOUT) normally ends a stuck file first; this is the backstop.
    const alarm = setTimeout(
      () => {
        timedOut = true
        child.kill('SIGALRM')
        killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      },
      timeoutS * 1000 + 5_000,
    )
    child.on('error', (err) => chunks.push(Buffer.from(`not ok 1 - could not start: ${err.message}\n`)))
    child.on('close', (code, signal) => {
      clearTimeout(alarm)
      if (killTimer) clearTimeout(killTimer)
      running.delete(child)
      const output = Buffer.concat(chunks).toString('utf8')
      const ms = (performance.now() - fileStarted).toFixed(3)
      const ok = code === 0 && signal === null && !timedOut && topLevelPlan(output)
      resolve({ file, output, ms, ok, code, signal, timedOut })
    })
  })
}

function report(result) {
  reported += 1
  const body = result.output.replace(/\n$/, '')
  let text = `# Subtest: ${result.file}\n`
  if (body.length > 0) text += `${body.replace(/^/gm, '    ')}\n`
  if (result.ok) {
    text += `ok ${reported} - ${result.file} # time=${result.ms}ms\n`
  } else {
    failed += 1
    failures.push(result)
    const why = result.timedOut
      ? `timed out after ${timeoutS} s`
      : result.signal
        ? `ended by ${result.signal}`
        : result.code !== 0
          ? `exit status ${result.code}`
          : 'no plan printed (the file ended early)'
    text += `not ok ${reported} - ${result.file} # time=${result.ms}ms\n  ---\n  reason: ${JSON.stringify(why)}\n  ...\n`
  }
  print(text)
}

for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal)
    process.exit(status)
  })
}

/**
 * A file whose header says `// test-runner: waiting lane` spends most of its time waiting on a
 * clock (a cron minute, an idle timeout, a heartbeat) with its CPU idle. Such files run one after
 * another in a lane of their own beside the `--jobs` lanes, so a core is not left idle while one
 * of them holds a lane.
 */
const WAITING_LANE = /^\/\/ test-runner: waiting lane\b/m
/**
 * A file whose header says `// test-runner: shares a process` runs with up to BATCH_SIZE - 1 other
 * such files in one process (scripts/test-batch.mjs says what such a file may not do). Each batch
 * stands in the queue where its first file stood. BRAIN_TEST_BATCH_SIZE=1 runs every file alone,
 * to tell whether a failure comes from a file that ran before it.
 */
const SHARES_A_PROCESS = /^\/\/ test-runner: shares a process\b/m
const BATCH_SIZE = Math.max(1, Number(process.env.BRAIN_TEST_BATCH_SIZE ?? 8) || 8)
/**
 * The first lines of a test file, read from its TypeScript source when there is one beside dist/:
 * the compiled file keeps no comments.
 */
const header = (file) => {
  const built = /^(.*\/)?dist\/(.+)\.js$/.exec(file)
  const source = built && `${built[1] ?? ''}${built[2]}.ts`
  const path = source && existsSync(source) ? source : file
  try {
    const fd = openSync(path, 'r')
    try {
      const head = Buffer.alloc(4096)
      return head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0))
    } finally {
      closeSync(fd)
    }
  } catch {
    return ''
  }
}
const queued = []
let batch = null
for (const [index, file] of files.entries()) {
  const head = header(file)
  if (!SHARES_A_PROCESS.test(head)) {
    queued.push({ files: [file], childId: index + 1, waits: WAITING_LANE.test(head) })
    continue
  }
  if (batch === null || batch.files.length >= BATCH_SIZE) {
    batch = { files: [], childId: index + 1, waits: false }
    queued.push(batch)
  }
  batch.files.push(file)
}
const waiting = queued.filter((entry) => entry.waits)
const busy = queued.filter((entry) => !entry.waits)

print('TAP version 14\n')
async function lane(queue, jobId) {
  for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) report(await runFile(entry, jobId))
}
const lanes = Array.from({ length: Math.min(jobs, busy.length) }, (_, i) => lane(busy, i))
if (waiting.length > 0) lanes.push(lane(waiting, jobs))
await Promise.all(lanes)
/**
 * Each failed file's failing assertions with their diagnostics, as TAP comments: a CI log is often
 * read from its end, and the file's own output may lie thousands of lines above it.
 */
function recap(result) {
  const lines = result.output.split('\n')
  const kept = []
  for (let i = 0; i < lines.length && kept.length < RECAP_LINES; i++) {
    if (!/^\s*not ok /.test(lines[i])) continue
    kept.push(lines[i])
    const indent = /^\s*/.exec(lines[i])[0]
    if (lines[i + 1]?.trim() !== '---') continue
    for (i += 1; i < lines.length && kept.length < RECAP_LINES; i++) {
      kept.push(lines[i])
      if (lines[i].startsWith(`${indent}  ...`)) break
    }
  }
  if (kept.length === 0) kept.push(...lines.slice(-RECAP_LINES))
  return `# failed: ${result.file}\n${kept.map((line) => `#   ${line}`).join('\n')}\n`
}
const RECAP_LINES = 80

print(`1..${queued.length}\n# { total: ${queued.length}, pass: ${queued.length - failed}, fail: ${failed} }\n# time=${Date.now() - started}ms\n`)
for (const result of failures) print(recap(result))
process.exitCode = failed > 0 ? 1 : 0
