import { BrainError } from '../errors/index.js'

/** The error codes of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 8707 that this server returns. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'unsupported_response_type'

/**
 * A refusal of an OAuth endpoint. `code` is the protocol's own error code, which is what the
 * client receives in `error`; `status` is the HTTP status the endpoint answers with.
 */
export class OAuthError extends BrainError {
  override readonly errorClass: string = 'OAuthError'
  readonly status: number

  constructor(code: OAuthErrorCode, message: string, status = 400) {
    super(code, message)
    this.status = status
  }

  toResponse(): { error: string; error_description: string } {
    return { error: this.code, error_description: this.message }
  }
}
