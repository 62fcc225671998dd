import { readFile, stat } from 'node:fs/promises'
import { basename, isAbsolute } from 'node:path'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import { UsageError } from '../errors/index.js'
import type { Logger } from '../util/index.js'

/** A transcript larger than this is not read: a session page is for reading, not for archives. */
const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024

export interface TranscriptCapture {
  /** Absolute path of the agent's JSONL session log. */
  transcriptPath: string
  sessionId: string | null
  /** The agent that wrote it (`claude-code`). */
  harness: string
  cwd: string | null
  /** The source the session page goes to (the one the hook was installed for); default when null. */
  sourceId?: string | null
  noEmbed?: boolean
}

export interface TranscriptReceipt {
  slug: string
  status: string
  title: string
  messages: number
  secretsScrubbed: number
}

/** `sessions/<harness>/<session id>`: one page a session, rewritten as the session grows. */
export function sessionSlug(harness: string, sessionId: string | null, transcriptPath: string): string {
  const id = (sessionId ?? basename(transcriptPath).replace(/\.[^.]+$/, '')).toLowerCase().replace(/[^a-z0-9-]+/g, '-')
  return `sessions/${harness.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}/${id.replace(/^-+|-+$/g, '') || 'session'}`
}

/**
 * Captures an agent's session transcript as a page: the agent-log converter makes it (secrets
 * scrubbed there), and the trusted write path links it to the entities it names.
 */
export async function captureTranscript(brain: { db: Database; config: Config; logger: Logger }, request: TranscriptCapture): Promise<TranscriptReceipt> {
  if (!isAbsolute(request.transcriptPath)) {
    throw new UsageError('transcript_path_relative', `The transcript path must be absolute: ${request.transcriptPath}`)
  }
  const info = await stat(request.transcriptPath).catch(() => null)
  if (info === null || !info.isFile()) throw new UsageError('transcript_missing', `No transcript at ${request.transcriptPath}`)
  if (info.size > MAX_TRANSCRIPT_BYTES) throw new UsageError('transcript_too_large', `${request.transcriptPath}: ${info.size} bytes exceed ${MAX_TRANSCRIPT_BYTES}`)
  const bytes = new Uint8Array(await readFile(request.transcriptPath))
  const { convertBounded, hashBytes, renderDraft } = await import('../convert/index.js')
  // The chat converter, by name: an agent log is JSONL whatever its file is called.
  const converted = await convertBounded({ bytes, name: `${basename(request.transcriptPath).replace(/\.[^.]+$/, '')}.jsonl`, contentType: 'application/x-ndjson' })
  const draft = converted.drafts[0]
  if (draft === undefined) throw new UsageError('transcript_empty', `${request.transcriptPath} holds no conversation`)
  const frontmatter: Record<string, unknown> = { ...draft.frontmatter, type: 'session', harness: request.harness }
  if (request.sessionId !== null) frontmatter.session_id = request.sessionId
  if (request.cwd !== null) frontmatter.cwd = request.cwd
  const content = renderDraft({ ...draft, frontmatter }, hashBytes(bytes))
  const { putPage } = await import('../pages/index.js')
  const { readConfigValue } = await import('../config/index.js')
  const { activeEmbeddingProvider } = await import('../models/index.js')
  const slug = sessionSlug(request.harness, request.sessionId, request.transcriptPath)
  const result = await putPage(
    {
      db: brain.db,
      logger: brain.logger,
      repoPath: await readConfigValue(brain.db, 'sync.repo_path'),
      remote: false,
      embedder: request.noEmbed ? null : await activeEmbeddingProvider(brain.db, brain.config),
      maxFences: brain.config.import.maxFencesPerPage,
    },
    {
      slug,
      content,
      ...(request.sourceId ? { sourceId: request.sourceId } : {}),
      sourceUri: `${request.harness}:${request.sessionId ?? request.transcriptPath}`,
      sourceKind: 'capture',
      writtenVia: `hook:${request.harness}`,
    },
  )
  return { slug: result.slug, status: result.status, title: draft.title, messages: converted.counts.messages ?? 0, secretsScrubbed: converted.counts.secrets_scrubbed ?? 0 }
}
