import { spawn } from 'node:child_process'
import { BrainError, NotAvailableError, ValidationError } from '../src/errors/index.js'
import { defineJob, type DefinedJob } from '../src/queue/index.js'
import { parseShellJobData } from './shell-job-data.js'

/** A shell command that ran and exited non-zero. */
export class ShellCommandError extends BrainError {
  override readonly errorClass = 'ShellCommandError'
}

interface ShellOptions {
  /** After SIGTERM on abort, SIGKILL follows this long later (the spec's 5 s). */
  killGraceMs?: number
  /** Keep at most this much of stdout and of stderr (the tail). */
  maxOutputBytes?: number
}

function tail(chunks: Buffer[], max: number): string {
  const all = Buffer.concat(chunks)
  return all.subarray(Math.max(0, all.length - max)).toString('utf8')
}

function collect(stream: NodeJS.ReadableStream, max: number): Buffer[] {
  const chunks: Buffer[] = []
  let size = 0
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    size += chunk.length
    while (size - (chunks[0]?.length ?? 0) > max && chunks.length > 1) size -= chunks.shift()!.length
  })
  return chunks
}

/**
 * Runs `data.cmd` with /bin/sh (or `data.argv` without a shell) in its own process group. Only when the worker's
 * configuration allows shell jobs (BRAIN_ALLOW_SHELL_JOBS=1), never for an untrusted payload.
 * On abort the group gets SIGTERM, then SIGKILL if it is still there after the grace period.
 */
export function createShellHandler(options: ShellOptions = {}): DefinedJob<'shell'> {
  const killGraceMs = options.killGraceMs ?? 5000
  const maxOutput = options.maxOutputBytes ?? 64 * 1024
  return defineJob({
    name: 'shell',
    run: async (ctx) => {
      if (!ctx.config.jobs.allowShell) {
        throw new NotAvailableError('shell_jobs_disabled', 'Shell jobs are disabled on the process that ran this job.', {
          hint: 'Set BRAIN_ALLOW_SHELL_JOBS=1 for the worker (or command) that runs shell jobs.',
        })
      }
      if (ctx.data.untrusted_payload === true) {
        throw new ValidationError('shell_untrusted_payload', 'A shell job never runs an untrusted payload.')
      }
      const job = parseShellJobData(ctx.data)
      ctx.signal.throwIfAborted()
      ctx.logger.info('shell job', { job_id: ctx.jobId, command: job.display.slice(0, 200), cwd: job.cwd ?? null, env_names: Object.keys(job.env) })
      const child = spawn(job.file, job.args, {
        cwd: job.cwd,
        env: job.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
      const stdout = collect(child.stdout, maxOutput)
      const stderr = collect(child.stderr, maxOutput)
      const signalGroup = (signal: NodeJS.Signals): void => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, signal)
        } catch {
          // The group is already gone.
        }
      }
      let killTimer: NodeJS.Timeout | null = null
      const onAbort = (): void => {
        signalGroup('SIGTERM')
        killTimer = setTimeout(() => signalGroup('SIGKILL'), killGraceMs)
      }
      ctx.signal.addEventListener('abort', onAbort, { once: true })
      try {
        const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
          child.once('error', (error: NodeJS.ErrnoException) => {
            reject(
              new ShellCommandError('shell_spawn_failed', `Could not start ${job.file}${job.cwd ? ` in ${job.cwd}` : ''} (${error.code ?? 'error'}).`, {
                hint: 'Check that the program exists on the job\'s PATH and that "cwd" is an existing directory.',
                cause: error,
              }),
            )
          })
          child.once('close', (code, signal) => resolve({ code, signal }))
        })
        ctx.signal.throwIfAborted()
        const result = { exit_code: code, signal, stdout: tail(stdout, maxOutput), stderr: tail(stderr, maxOutput) }
        if (code !== 0) {
          throw new ShellCommandError('shell_command_failed', `The command exited with ${code === null ? `signal ${signal}` : `code ${code}`}.`, {
            hint: result.stderr.trim().split('\n').slice(-3).join(' | ') || 'The command printed nothing on stderr.',
          })
        }
        return result
      } finally {
        ctx.signal.removeEventListener('abort', onAbort)
        if (killTimer) clearTimeout(killTimer)
      }
    },
  })
}

const shellHandler: DefinedJob<'shell'> = createShellHandler()
export default shellHandler
