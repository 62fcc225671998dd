import { createHash } from 'node:crypto'
import { converterFor } from '../../convert/index.js'
import { ValidationError } from '../../errors/index.js'

/** Content types the built-in `ingest_capture` handler turns into pages. */
export const TEXT_CONTENT_TYPES = ['text/markdown', 'text/plain', 'text/html', 'application/json'] as const
export type TextContentType = (typeof TEXT_CONTENT_TYPES)[number]

/** Events larger than this are refused at validation (the page import limit is 5 MiB too). */
const MAX_EVENT_CONTENT_BYTES = 5 * 1024 * 1024
/** A document (base64 content) may be as large as a converter takes one file: 50 MiB of bytes. */
const MAX_EVENT_DOCUMENT_BYTES = 50 * 1024 * 1024

/**
 * One piece of captured content on its way to becoming a page. Sources emit these; the daemon
 * and the `/ingest` route validate them with validateIngestionEvent before anything else.
 */
export interface IngestionEvent {
  /** MIME type of `content` (parameters such as `; charset=utf-8` are allowed and ignored). */
  content_type: string
  /** The content body, as UTF-8 text. Must not be empty. */
  content: string
  /** Which source emitted the event (`inbox`, `watcher`, a plugin's id, `webhook:<client>`). */
  source_id: string
  /** Where the content came from (a `file://` URI, a URL); stamped as page provenance. */
  source_uri?: string
  /** When the source saw the content (ISO 8601); the default slug's date comes from it. */
  received_at?: string
  /** Free-form fields; `metadata.slug` names the target page, `metadata.file_name` the original file. */
  metadata?: Record<string, unknown>
  /** `base64` when `content` holds a document file's bytes (PDF, chat export) for a converter. */
  content_encoding?: 'base64'
}

/** Whether a content type names a document a converter reads (sent base64-encoded). */
export function isDocumentContentType(type: string): boolean {
  return converterFor('', type) !== null
}

export type ContentClass = { kind: 'text'; type: TextContentType } | { kind: 'binary'; type: string }

/**
 * Sorts a content type into what the handler can read: one of the text types (an unknown
 * `text/*` reads as text/plain) or binary (images, PDF, audio, video and anything else).
 */
export function classifyContentType(raw: string): ContentClass {
  const type = raw.split(';', 1)[0]!.trim().toLowerCase()
  if ((TEXT_CONTENT_TYPES as readonly string[]).includes(type)) return { kind: 'text', type: type as TextContentType }
  if (type.startsWith('text/')) return { kind: 'text', type: 'text/plain' }
  return { kind: 'binary', type }
}

export const PROCESSOR_HINT = 'Only text/markdown, text/plain, text/html and application/json are processed; install an ingestion processor plugin for this content type, or convert it to text first.'

export function binaryContentError(type: string): ValidationError {
  return new ValidationError('binary_content_unsupported', `Content type ${type || '(none)'} is binary; the built-in ingest handler reads text only.`, { hint: PROCESSOR_HINT })
}

/** sha256 (hex) of the content: the dedupe key of the daemon and the idempotency key of `/ingest`. */
export function computeContentHash(event: Pick<IngestionEvent, 'content'>): string {
  return createHash('sha256').update(event.content, 'utf8').digest('hex')
}

function invalid(field: string, problem: string): ValidationError {
  return new ValidationError('invalid_ingestion_event', `Ingestion event field ${field} ${problem}.`, {
    hint: 'An event needs content_type (string), content (non-empty string) and source_id (string); source_uri, received_at and metadata are optional.',
  })
}

function optionalString(value: Record<string, unknown>, field: string): string | undefined {
  const v = value[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw invalid(field, 'must be a string')
  return v
}

/**
 * Checks an untrusted value against IngestionEvent and returns a clean copy (unknown fields
 * dropped). Throws a ValidationError (`invalid_ingestion_event`, or `empty_body` for empty
 * content) naming the field.
 */
export function validateIngestionEvent(value: unknown): IngestionEvent {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid('(event)', 'must be an object')
  const record = value as Record<string, unknown>
  const contentType = record.content_type
  if (typeof contentType !== 'string' || contentType.trim() === '') throw invalid('content_type', 'must be a non-empty string')
  if (typeof record.content !== 'string') throw invalid('content', 'must be a string')
  if (record.content === '') throw new ValidationError('empty_body', 'The ingestion event has no content.', { hint: 'Send some content.' })
  const limit = record.content_encoding === 'base64' ? Math.ceil(MAX_EVENT_DOCUMENT_BYTES / 3) * 4 : MAX_EVENT_CONTENT_BYTES
  if (Buffer.byteLength(record.content, 'utf8') > limit) throw invalid('content', `is larger than ${limit} bytes`)
  if (typeof record.source_id !== 'string' || record.source_id.trim() === '') throw invalid('source_id', 'must be a non-empty string')
  const sourceUri = optionalString(record, 'source_uri')
  const receivedAt = optionalString(record, 'received_at')
  if (receivedAt !== undefined && Number.isNaN(Date.parse(receivedAt))) throw invalid('received_at', 'must be an ISO 8601 time')
  const metadata = record.metadata
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) throw invalid('metadata', 'must be an object')
  if (metadata && (metadata as Record<string, unknown>).slug !== undefined && typeof (metadata as Record<string, unknown>).slug !== 'string') {
    throw invalid('metadata.slug', 'must be a string')
  }
  const encoding = record.content_encoding
  if (encoding !== undefined && encoding !== null && encoding !== 'base64') throw invalid('content_encoding', 'must be "base64" when given')
  return {
    ...(encoding === 'base64' ? { content_encoding: 'base64' as const } : {}),
    content_type: contentType.trim(),
    content: record.content,
    source_id: record.source_id,
    ...(sourceUri !== undefined ? { source_uri: sourceUri } : {}),
    ...(receivedAt !== undefined ? { received_at: receivedAt } : {}),
    ...(metadata ? { metadata: { ...(metadata as Record<string, unknown>) } } : {}),
  }
}
