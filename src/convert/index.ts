/**
 * Converters: turn document files (chat exports and agent transcripts so far) into page drafts.
 *
 * Each converter is pure — bytes, name and content type in, drafts out — with no network and no
 * content run; `convert` applies the size cap before any parsing. May import src/errors and node built-ins only.
 */
import { convertChat } from './chat.js'
import { ConvertError } from './errors.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult } from './types.js'

export type { ConvertInput, ConvertLimits, ConvertResult, PageDraft, SourceFormat } from './types.js'
export { DEFAULT_LIMITS } from './types.js'
export { ConvertError, type ConvertErrorCode } from './errors.js'
export { scrubSecrets, SECRET_PATTERNS } from './scrub.js'
export { detectChat } from './chat.js'
export { hashBytes, renderDraft } from './render.js'

export function convert(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): ConvertResult {
  if (input.bytes.byteLength > limits.maxBytes) {
    throw new ConvertError('convert_too_large', `${input.name}: ${input.bytes.byteLength} bytes exceed ${limits.maxBytes}`)
  }
  return convertChat(input, limits)
}
