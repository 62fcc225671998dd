/**
 * `brain hook <harness> <event>`: what a coding agent runs on its lifecycle events. It loads no
 * command framework: it reads the hook's JSON on stdin, calls one operation (start_session,
 * recall, or submit_job for a capture) and answers in the harness's JSON form. The call goes to
 * the resident service when one listens; when none does, the hook opens the brain itself for
 * that one call (no model, no queue worker is needed for it) and starts the service for the
 * next hook. It never blocks the agent: whatever goes wrong (bad stdin, no brain, a slow
 * service) ends in exit 0 with nothing on stdout, and a line in the brain's `logs/hooks.log`.
 */
import { appendFileSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { hookReply, hookSpec, isCompactedStart, orientationText, parseHookInput, recallContext, type HookInput, type HookSpec } from '../agents/hook-events.js'
import type { BrainEnv } from '../config/index.js'
import { brainExists, brainHome, hookTimeoutMs } from '../config/home.js'
import type { HookAnswer } from '../service/index.js'
import { callBrain, type BrainCall, type CallResult } from './hook-call.js'

/** Hook JSON beyond this is not a hook's; it is dropped unread. */
const MAX_STDIN_BYTES = 4 * 1024 * 1024

interface HookIo {
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  cwd: string
}

function logLine(env: BrainEnv, message: string): void {
  const home = brainHome(env)
  // A hook never makes a brain home: without one there is nowhere to log, and nothing to say.
  if (!existsSync(home)) return
  try {
    mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 })
    appendFileSync(join(home, 'logs', 'hooks.log'), `${new Date().toISOString()} ${message}\n`, { mode: 0o600 })
  } catch {
    // Logging is best effort; the hook still must not fail.
  }
}

function readAll(stream: NodeJS.ReadableStream, deadline: Promise<void>): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (value: string | null): void => {
      stream.removeAllListeners('data')
      resolve(value)
    }
    stream.on('data', (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buf.length
      if (size > MAX_STDIN_BYTES) return done(null)
      chunks.push(buf)
    })
    stream.once('end', () => done(Buffer.concat(chunks).toString('utf8')))
    stream.once('error', () => done(null))
    void deadline.then(() => done(null))
  })
}

function transcriptSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** What a hook did, for the log: never the prompt's text, only what was said back or why nothing. */
interface Answer {
  reply: string
  note: string
}

function slugsOf(result: unknown): string[] {
  const inject = (result as { inject?: unknown } | null)?.inject
  return Array.isArray(inject) ? inject.map((i: unknown) => (i as { slug?: unknown })?.slug).filter((s): s is string => typeof s === 'string') : []
}

/** The source a hook was installed for (`--source <id>` after the event), else none: the directory picks it. */
function hookSource(args: readonly string[]): string | null {
  const at = args.indexOf('--source', 2)
  const id = at === -1 ? undefined : args[at + 1]
  return id === undefined || id.startsWith('-') || id.trim() === '' ? null : id
}

async function answer(spec: HookSpec, input: HookInput, run: (call: BrainCall) => Promise<unknown>, cwd: string, source: string | null): Promise<Answer> {
  const where = { cwd: input.cwd ?? cwd, ...(source === null ? {} : { source }) }
  const session = input.sessionId === null ? {} : { session_id: input.sessionId }
  if (spec.action === 'orient') {
    const fresh = isCompactedStart(input) && input.sessionId !== null
    const start = (await run({ operation: 'start_session', args: { ...session, ...where, ...(fresh ? { fresh: true } : {}) } })) as { source_id?: unknown; forgotten?: unknown }
    const reply = hookReply(spec, orientationText(start))
    const forgot = fresh ? `, compacted: forgot ${String(start?.forgotten ?? 0)} told items` : ''
    return { reply, note: reply === '' ? `nothing injected: no orientation${forgot}` : `injected orientation of source ${String(start?.source_id)}${forgot}` }
  }
  if (spec.action === 'recall') {
    if (input.prompt === null) return { reply: '', note: 'nothing injected: no prompt' }
    const result = await run({ operation: 'recall', args: { text: input.prompt, ...session, ...where } })
    const reply = hookReply(spec, recallContext(result))
    const slugs = slugsOf(result)
    return { reply, note: reply === '' ? 'nothing injected: nothing named, or all of it told before in this session' : `injected ${slugs.length}: ${slugs.join(', ')}` }
  }
  const notes: string[] = []
  if (spec.compacts && input.sessionId !== null) {
    const start = (await run({ operation: 'start_session', args: { session_id: input.sessionId, fresh: true, ...where } })) as { forgotten?: unknown }
    notes.push(`compacting: forgot ${String(start?.forgotten ?? 0)} told items`)
  }
  if (input.transcriptPath === null) return { reply: '', note: [...notes, 'no capture: no transcript_path'].join('; ') }
  const data = { transcript_path: input.transcriptPath, session_id: input.sessionId, harness: spec.harness, cwd: input.cwd, event: spec.event, source }
  // One capture per state of the transcript: a second Stop with nothing new is the same job.
  const key = `${spec.harness}:${input.sessionId ?? input.transcriptPath}:${transcriptSize(input.transcriptPath)}`
  const job = (await run({ operation: 'submit_job', args: { name: 'capture_transcript', data, idempotency_key: key.slice(0, 200) } })) as { id?: unknown }
  notes.push(`capture job ${String(job?.id)} submitted`)
  return { reply: '', note: notes.join('; ') }
}

/** How a hook reaches its input and the brain, wherever it runs. */
interface HookDeps {
  /** The hook's stdin, or null when it could not be read (too long, an error, the deadline). */
  input(): Promise<string | null>
  /** One operation, with the directory the hook's input names (else the hook's own). */
  call(call: BrainCall, cwd: string): Promise<CallResult>
  /** The hook process's working directory. */
  cwd: string
}

/**
 * What a hook answers and logs, in the hook's process or in the service: nothing is printed or
 * logged here. A note of null logs nothing (there is no brain to speak of).
 */
export async function answerHook(args: readonly string[], env: BrainEnv, deps: HookDeps): Promise<HookAnswer> {
  try {
    const spec = hookSpec(args[0], args[1])
    if (spec === null) return { stdout: '', note: 'unknown harness or event' }
    if (!brainExists(env)) return { stdout: '', note: null }
    const raw = await deps.input()
    const input = raw === null ? null : parseHookInput(raw)
    if (input === null) return { stdout: '', note: 'stdin is not a hook JSON object' }
    const via: string[] = []
    const run = async (call: BrainCall): Promise<unknown> => {
      const outcome = await deps.call(call, input.cwd ?? deps.cwd)
      via.push(outcome.via)
      if (!outcome.ok) throw new HookCallError(`${call.operation}: ${outcome.why}`)
      return outcome.result
    }
    const { reply, note } = await answer(spec, input, run, deps.cwd, hookSource(args))
    return { stdout: reply, note: `${note}${via.length > 0 ? ` [${[...new Set(via)].join(', ')}]` : ''}` }
  } catch (err) {
    return { stdout: '', note: err instanceof HookCallError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}` }
  }
}

/**
 * What a hook logs when the service it asked never answered by the deadline: what it would have
 * logged had it waited on that service for each call itself.
 */
export function unanswered(args: readonly string[], env: BrainEnv, raw: string | null, cwd: string): Promise<HookAnswer> {
  const late: CallResult = { ok: false, why: 'the brain service did not answer in time', via: 'service' }
  return answerHook(args, env, { input: () => Promise.resolve(raw), call: () => Promise.resolve(late), cwd })
}

/** Appends a hook's line to hooks.log, with the time the hook took. */
function logHook(env: BrainEnv, args: readonly string[], note: string, startedMs: number): void {
  logLine(env, `hook ${args.join(' ')}: ${note} (${Math.round(performance.now() - startedMs)} ms)`)
}

/** Runs a hook; always resolves with 0, the only exit code a hook of brain's gives. */
export async function runHook(args: readonly string[], env: BrainEnv, io: HookIo, started = performance.now()): Promise<number> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, hookTimeoutMs(env))
    timer.unref()
  })
  const { stdout, note } = await answerHook(args, env, {
    input: () => readAll(io.stdin, deadline),
    call: (call, cwd) => callBrain(env, call, { cwd, deadline }),
    cwd: io.cwd,
  })
  clearTimeout(timer)
  if (stdout !== '') io.stdout.write(stdout)
  if (note !== null) logHook(env, args, note, started)
  return 0
}

class HookCallError extends Error {}
