/**
 * Typed errors with a stable `class` and `code`. Agents receive them as `{class, code, hint}`
 * through serializeError; callers branch on `code`, never on message text.
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

/** Agent-facing form of any thrown value; never includes a stack trace. */
export function serializeError(err: unknown): ErrorEnvelope {
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
