import { BrainError } from '../errors/index.js'

export type ConvertErrorCode =
  | 'convert_too_large'
  | 'convert_unsupported'
  | 'convert_corrupt'
  | 'convert_too_many_pages'
  | 'convert_timeout'
  | 'convert_archive_bomb'
  | 'pdf_encrypted'
  | 'pdf_corrupt'
  | 'pdf_no_text'
  | 'convert_redirect'
  | 'convert_noindex'
  | 'convert_trashed'
  | 'convert_copy'

/** A file could not be converted; the importer records the code and goes on with the rest. */
export class ConvertError extends BrainError {
  override readonly errorClass = 'ConvertError'
  constructor(code: ConvertErrorCode, message: string, hint = '') {
    super(code, message, { hint })
  }
}
