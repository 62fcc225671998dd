import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { NotAvailableError, ProviderError } from '../errors/index.js'

/**
 * The server engine's copy: PostgreSQL's own pg_dump (custom format) and pg_restore, found on
 * PATH or in the usual Debian place. The password goes to the child through its environment,
 * never on a command line other users can read.
 */

const DEBIAN_ROOT = '/usr/lib/postgresql'

/** Every place a client program may be, the newest PostgreSQL first (pg_dump must not be older than the server). */
function candidates(program: string, path: string | undefined): string[] {
  const found: string[] = []
  if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    for (const v of versions) found.push(join(DEBIAN_ROOT, v, 'bin', program))
  }
  for (const dir of (path ?? '').split(delimiter)) if (dir !== '') found.push(join(dir, program))
  return found
}

export function findPgProgram(program: 'pg_dump' | 'pg_restore' | 'psql', path: string | undefined): string {
  const found = candidates(program, path).find((p) => existsSync(p))
  if (!found) {
    throw new NotAvailableError(`${program}_not_found`, `${program} was not found on PATH or in ${DEBIAN_ROOT}/*/bin.`, {
      hint: 'Install the PostgreSQL client programs (Debian: postgresql-client) of the server version or newer.',
    })
  }
  return found
}

/** The URL without its password, and the password for PGPASSWORD. */
function splitPassword(url: string): { url: string; password: string | null } {
  try {
    const parsed = new URL(url)
    const password = parsed.password === '' ? null : decodeURIComponent(parsed.password)
    parsed.password = ''
    return { url: parsed.toString(), password }
  } catch {
    return { url, password: null }
  }
}

interface PgProgramRun {
  program: string
  args: string[]
  /** The database to connect to; null for a run that only reads and writes files. */
  url: string | null
  env: Record<string, string | undefined>
}

/** Runs a client program against the database; resolves with its stdout, rejects with its stderr. */
export function runPgProgram(run: PgProgramRun): Promise<Buffer> {
  const { url, password } = run.url === null ? { url: null, password: null } : splitPassword(run.url)
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(run.env)) if (v !== undefined && !k.startsWith('PG')) env[k] = v
  if (password !== null) env.PGPASSWORD = password
  return new Promise((resolve, reject) => {
    const child = spawn(run.program, url === null ? run.args : [...run.args, `--dbname=${url}`], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new ProviderError('pg_program_failed', `${run.program} exited with ${code}: ${err.trim().slice(0, 2000)}`, { hint: 'Nothing was changed; the message above is PostgreSQL’s.' }))
    })
  })
}
