/**
 * bench/hooks: wall time of `brain hook claude-code user-prompt-submit` as the agent runs it, a
 * fresh process each time, against a bare `node -e 0`: the first hook after the resident service
 * has gone (idle exit; every run starts with no service), and the warm hook (the service the
 * first hook started is listening). Embedded engine, a brain of a few pages; every prompt names
 * one entity in a new session, so every hook injects one page. Each figure is the median run.
 * Hooks run through the launcher `brain agents install` writes for the build (`$BRAIN_HOME/bin/brain`),
 * as an agent's hook command starts them; the warm hook is also timed as `node bin/brain.js hook …`.
 *
 *   node dist/bench/hooks/run.js [--runs N] [--bin path/to/bin/brain.js] [--json]
 *
 * `--bin` times another build's hook (a checkout of an older commit) against the same brain.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'
import { importPage } from '../../src/pages/index.js'
import { packageRoot } from '../../src/util/package-root.js'

interface Options {
  runs: number
  bin: string
  json: boolean
}

function options(argv: readonly string[]): Options {
  const at = (flag: string): string | undefined => {
    const i = argv.indexOf(flag)
    return i === -1 ? undefined : argv[i + 1]
  }
  return { runs: Number(at('--runs') ?? 10), bin: at('--bin') ?? join(packageRoot(), 'bin', 'brain.js'), json: argv.includes('--json') }
}

function timed(args: string[], env: Record<string, string>, input = '', program = process.execPath): { ms: number; stdout: string } {
  const started = performance.now()
  const run = spawnSync(program, args, { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', input })
  const ms = performance.now() - started
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr}`)
  return { ms, stdout: run.stdout }
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function servicePid(home: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(join(home, 'service.json'), 'utf8')) as { pid?: unknown }).pid
    return typeof pid === 'number' ? pid : null
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** How the last hook reached the brain, from the end of its hooks.log line: `in-process, service started`, `service`. */
function lastHookPath(home: string): string {
  const lines = readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')
    .trimEnd()
    .split('\n')
  return /\[([^\]]+)\] \(\d+ ms\)$/.exec(lines[lines.length - 1] ?? '')?.[1] ?? 'unknown'
}

/** Stops the home's service (if any) and waits until it has let go of the brain. */
async function stopService(bin: string, env: Record<string, string>, home: string): Promise<void> {
  const pid = servicePid(home)
  spawnSync(process.execPath, [bin, 'service', 'stop'], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' })
  if (pid !== null) await until('the service to exit', () => !alive(pid))
}

/** Writes the build's own launcher into the home, as `brain agents install` does, and returns its path. */
async function writeLauncher(bin: string, home: string): Promise<string> {
  const module = pathToFileURL(join(dirname(bin), '..', 'dist', 'src', 'agents', 'launcher.js')).href
  const { launcherPath, launcherScript } = (await import(module)) as { launcherPath: (home: string) => string; launcherScript: (argv: string[], home: string) => string }
  const path = launcherPath(home)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, launcherScript([process.execPath, bin], home), { mode: 0o755 })
  return path
}

/** The middle run: on a shared machine one slow run moves a mean far more than the median. */
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return Math.round(sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2)
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2))
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-hooks-'))
  const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_EMBEDDING_PROVIDER: 'local', BRAIN_HOOK_TIMEOUT_MS: '60000' }
  const db = await openDatabase(loadConfig({ env }).engine)
  try {
    for (const [slug, title] of [
      ['people/tobiah-marsh', 'Tobiah Marsh'],
      ['people/odile-brackenridge', 'Odile Brackenridge'],
      ['companies/marrowline', 'Marrowline'],
    ] as const) {
      const type = slug.startsWith('people/') ? 'person' : 'company'
      await importPage(db, { slug, kind: 'markdown', content: `---\ntitle: ${title}\ntype: ${type}\nsummary: ${title} in a sentence.\n---\n\n${title}.\n`, path: `${slug}.md` })
    }
  } finally {
    await db.close()
  }
  const socket = join(home, 'brain.sock')
  const launcher = await writeLauncher(opts.bin, home)
  const hook = (i: number, kind: string, through: 'launcher' | 'bin' = 'launcher'): number => {
    const input = JSON.stringify({ session_id: `${kind}-${i}`, prompt: 'prep my call with Tobiah Marsh', cwd: home })
    const words = ['hook', 'claude-code', 'user-prompt-submit']
    const { ms, stdout } = through === 'launcher' ? timed(words, env, input, launcher) : timed([opts.bin, ...words], env, input)
    if (!stdout.includes('people/tobiah-marsh')) throw new Error(`the ${kind} hook injected nothing: ${JSON.stringify(stdout)}`)
    return ms
  }
  try {
    const log = join(home, 'logs', 'service.log')
    const linesOf = (test: (line: string) => boolean): number => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(test).length : 0)
    const warmLines = (): number => linesOf((l) => l.endsWith(' warm'))
    const workerLines = (): number => linesOf((l) => / worker \S+ runs on /.test(l))
    const first: number[] = []
    let warmBefore = 0
    let workersBefore = 0
    for (let i = 0; i < opts.runs; i++) {
      await stopService(opts.bin, env, home)
      warmBefore = warmLines()
      workersBefore = workerLines()
      first.push(hook(i, 'first'))
      const path = lastHookPath(home)
      if (!path.startsWith('in-process')) throw new Error(`a first hook was answered by a running service (${path}): the service was not stopped`)
      // The hook started a service for the next one: once it listens, the next run's stop finds it.
      if (i < opts.runs - 1) await until('the service to listen', () => existsSync(socket) && socketAnswers(socket))
    }
    // The first hook left a service starting for the next one; the warm runs wait until it has
    // opened the brain, loaded its model and started its worker, as it has a few seconds later.
    await until('the service to listen', () => existsSync(socket) && socketAnswers(socket))
    await until('the service to be warm', () => warmLines() > warmBefore)
    await until("the service's worker to start", () => workerLines() > workersBefore)
    hook(0, 'warm-up')
    // The bare node runs alternate with the warm hooks: a shared machine's load changes by the minute.
    const bare: number[] = []
    const warm: number[] = []
    const warmBin: number[] = []
    for (let i = 0; i < opts.runs; i++) {
      bare.push(timed(['-e', '0'], {}).ms)
      warm.push(hook(i, 'warm'))
      warmBin.push(hook(i, 'warm-bin', 'bin'))
    }
    await stopService(opts.bin, env, home)
    const row = { runs: opts.runs, bin: opts.bin, nodeMs: median(bare), firstMs: median(first), warmMs: median(warm), warmBinMs: median(warmBin) }
    if (opts.json) process.stdout.write(`${JSON.stringify(row)}\n`)
    else {
      process.stdout.write(`medians of ${row.runs} runs\n`)
      process.stdout.write(`node -e 0          ${row.nodeMs} ms\n`)
      process.stdout.write(`first hook         ${row.firstMs} ms (target ≤ 1000 ms)\n`)
      process.stdout.write(`warm hook          ${row.warmMs} ms (${(row.warmMs / row.nodeMs).toFixed(2)}× node -e 0; target ≤ 1.5×)\n`)
      process.stdout.write(`warm, bin/brain.js ${row.warmBinMs} ms (${(row.warmBinMs / row.nodeMs).toFixed(2)}× node -e 0)\n`)
    }
  } finally {
    await stopService(opts.bin, env, home)
    rmSync(home, { recursive: true, force: true })
  }
}

await main()
