/**
 * Typed errors with a stable `class` and `code`. Agents receive them as `{class, code, hint}`
 * through serializeError; callers branch on `code`, never on message text.
 * May import: nothing of brain.
 */
export interface ErrorEnvelope {
  class: string
  code: string
  hint: string
  message: string
}

export interface BrainErrorOptions {
  hint?: string
  cause?: unknown
}

export class BrainError extends Error {
  readonly errorClass: string = 'BrainError'
  readonly code: string
  readonly hint: string
  /** Process exit code when this error ends a CLI command. */
  readonly exitCode: number = 1

  constructor(code: string, message: string, options: BrainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.hint = options.hint ?? ''
  }
}

/** Bad arguments or flags: the caller must change the call. */
export class UsageError extends BrainError {
  override readonly errorClass = 'UsageError'
}

/** A human must answer before the operation may proceed; exits with code 2. */
export class ConfirmationRequired extends BrainError {
  override readonly errorClass = 'ConfirmationRequired'
  override readonly exitCode = 2
}

export class NotFoundError extends BrainError {
  override readonly errorClass = 'NotFoundError'
}

export class ValidationError extends BrainError {
  override readonly errorClass = 'ValidationError'
}

export class ConfigError extends BrainError {
  override readonly errorClass = 'ConfigError'
}

/** The database could not be reached, opened or migrated. */
export class DatabaseError extends BrainError {
  override readonly errorClass = 'DatabaseError'
}

/** The embedded brain is held by another process. */
export class LockError extends BrainError {
  override readonly errorClass = 'LockError'
}

/** The operation exists in the interface but is not available here. */
export class NotAvailableError extends BrainError {
  override readonly errorClass = 'NotAvailableError'
}

/** A failure in an external provider (embedding API, git, network). */
export class ProviderError extends BrainError {
  override readonly errorClass = 'ProviderError'
}

export function isBrainError(err: unknown): err is BrainError {
  return err instanceof BrainError
}

/** A server-reported SQL error (both drivers expose the SQLSTATE and severity as fields). */
export interface SqlStateError extends Error {
  code: string
  severity?: string
  constraint?: string
}

export function isSqlStateError(err: unknown): err is SqlStateError {
  return err instanceof Error && typeof (err as SqlStateError).code === 'string' && /^[0-9A-Z]{5}$/.test((err as SqlStateError).code) && 'severity' in err
}

/** The thing changed since the caller read it (a write based on stale content); nothing was written. */
export class ConflictError extends BrainError {
  override readonly errorClass = 'ConflictError'
}

/** The disk refused a write: it is full, over quota, or read-only. */
export class DiskError extends BrainError {
  override readonly errorClass = 'DiskError'
}

/** Node's errno codes, and the ones the embedded engine's WebAssembly file system reports. */
const FULL_ERRNO_CODES = new Set(['ENOSPC', 'EDQUOT'])
const READ_ONLY_ERRNO_CODES = new Set(['EROFS'])
const WASM_ERRNO: Record<number, 'full' | 'read_only'> = { 51: 'full', 19: 'full', 69: 'read_only' }
/** PostgreSQL's disk_full condition. */
const DISK_FULL_SQLSTATE = '53100'

/**
 * Whether an error, or any error it was caused by, is the disk refusing a write. Decided on
 * codes (errno, SQLSTATE), never on message text.
 */
export function diskProblemOf(err: unknown): 'full' | 'read_only' | null {
  for (let current = err, depth = 0; current !== null && current !== undefined && depth < 8; depth++) {
    if (isSqlStateError(current) && current.code === DISK_FULL_SQLSTATE) return 'full'
    const errno = current as { code?: unknown; errno?: unknown; constructor?: { name?: string } }
    if (typeof errno.code === 'string' && FULL_ERRNO_CODES.has(errno.code)) return 'full'
    if (typeof errno.code === 'string' && READ_ONLY_ERRNO_CODES.has(errno.code)) return 'read_only'
    if (errno.constructor?.name === 'ErrnoError' && typeof errno.errno === 'number' && WASM_ERRNO[errno.errno]) return WASM_ERRNO[errno.errno]!
    current = (current as { cause?: unknown }).cause
  }
  return null
}

const FULL_DISK_ADVICE = 'Free some space (or move BRAIN_HOME to a larger disk) and run the command again; pages already stored are kept, and a re-import skips them.'

/**
 * The disk problem behind `err` as a typed error with advice, or null when there is none.
 * `fullAdvice` replaces the advice for a full disk where the disk is not BRAIN_HOME's.
 */
export function diskErrorFrom(err: unknown, where?: string, fullAdvice: string = FULL_DISK_ADVICE): DiskError | null {
  const problem = diskProblemOf(err)
  if (problem === null) return null
  const place = where ? ` (${where})` : ''
  return problem === 'full'
    ? new DiskError('disk_full', `The disk is full${place}; the operation stopped. Each page is stored whole or not at all, so what was stored is intact.`, {
        hint: fullAdvice,
        cause: err,
      })
    : new DiskError('disk_read_only', `The disk is read-only${place}; nothing was written.`, {
        hint: 'Remount it writable, or point BRAIN_HOME at a writable folder.',
        cause: err,
      })
}

/** Agent-facing form of any thrown value; never includes a stack trace. */
export function serializeError(err: unknown): ErrorEnvelope {
  const disk = isBrainError(err) && err.errorClass === 'DiskError' ? null : diskErrorFrom(err)
  if (disk) return { class: disk.errorClass, code: disk.code, hint: disk.hint, message: disk.message }
  if (isBrainError(err)) {
    return { class: err.errorClass, code: err.code, hint: err.hint, message: err.message }
  }
  if (isSqlStateError(err)) {
    return {
      class: 'DatabaseError',
      code: `sqlstate_${err.code}`,
      hint: 'The database refused the operation; nothing of it was written. The SQLSTATE code says why.',
      message: err.message,
    }
  }
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string' && typeof (err as NodeJS.ErrnoException).code === 'string') {
    const code = (err as NodeJS.ErrnoException).code!
    return { class: 'SystemError', code: code.toLowerCase(), hint: 'The operating system refused a file or network operation; check the path, permissions and free space.', message: err.message }
  }
  const message = err instanceof Error ? err.message : String(err)
  return { class: 'InternalError', code: 'internal_error', hint: 'This is a bug in brain; please report it with the command you ran.', message }
}

export function exitCodeFor(err: unknown): number {
  return isBrainError(err) ? err.exitCode : 1
}
