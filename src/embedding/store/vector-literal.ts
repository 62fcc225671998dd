import { ValidationError } from '../../errors/index.js'

/** pgvector's text form, '[0.1,0.2,...]'. JavaScript's shortest round-trip number form keeps every value exact. */
export function toVectorLiteral(vector: number[]): string {
  for (let i = 0; i < vector.length; i++) {
    if (!Number.isFinite(vector[i])) {
      throw new ValidationError('vector_not_finite', `Vector element ${i} is ${vector[i]}; pgvector accepts finite numbers only.`, {
        hint: 'The embedding provider returned a broken vector; re-embed the chunk.',
      })
    }
  }
  return `[${vector.join(',')}]`
}

/** Parses pgvector's text form; whitespace around elements is allowed. */
export function parseVectorLiteral(text: string): number[] {
  const trimmed = text.trim()
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) throw invalidLiteral(text, 'it is not enclosed in [ ]')
  const body = trimmed.slice(1, -1).trim()
  if (body === '') return []
  return body.split(',').map((part, index) => {
    const item = part.trim()
    const value = Number(item)
    // Number('') is 0, so an empty element must be rejected explicitly.
    if (item === '' || !Number.isFinite(value)) throw invalidLiteral(text, `element ${index} is '${item}'`)
    return value
  })
}

function invalidLiteral(text: string, reason: string): ValidationError {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text
  return new ValidationError('vector_literal_invalid', `Not a pgvector literal (${reason}): ${shown}`, {
    hint: "Expected the form '[0.1,0.2,...]' as returned by pgvector.",
  })
}
