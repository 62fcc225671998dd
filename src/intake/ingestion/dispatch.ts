import type { SqlExecutor } from '../../db/index.js'
import { countJobsOf, type JobRecord, type Queue } from '../../queue/index.js'
import { computeContentHash, type IngestionEvent } from './event.js'

/** What an `ingest_capture` job carries. */
interface IngestJobData {
  event: IngestionEvent
  /** Target slug chosen by the submitter (X-Brain-Slug); wins over `event.metadata.slug`. */
  slug?: string
  /** Who submitted it: `webhook:<token id>` or `daemon:<source id>`; the backlog is counted per client. */
  client_id: string
  content_hash: string
  /** True for anything that came from outside the machine (the /ingest route). */
  untrusted_payload: boolean
}

interface SubmitIngestOptions {
  clientId: string
  untrusted: boolean
  slug?: string
  /** Same client and same content → the same job (and job id). */
  idempotent: boolean
}

export async function submitIngestCapture(queue: Queue, event: IngestionEvent, options: SubmitIngestOptions): Promise<JobRecord> {
  const contentHash = computeContentHash(event)
  const data = {
    event,
    ...(options.slug !== undefined ? { slug: options.slug } : {}),
    client_id: options.clientId,
    content_hash: contentHash,
    untrusted_payload: options.untrusted,
  } satisfies IngestJobData
  return queue.submit('ingest_capture', data, options.idempotent ? { idempotencyKey: `${options.clientId}:${contentHash}` } : {})
}

/** Waiting `ingest_capture` jobs of one client: the `/ingest` backlog. */
export async function countWaitingIngestJobs(db: SqlExecutor, clientId: string): Promise<number> {
  const counts = await countJobsOf(db, 'ingest_capture', { statuses: ['waiting'], dataField: { key: 'client_id', value: clientId } })
  return counts.waiting ?? 0
}
