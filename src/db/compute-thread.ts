/**
 * The thread of an embedded brain's compute lane (compute-lane.ts): an in-memory PGLite started
 * from the pre-migrated snapshot of this build, answering one statement at a time. It reports
 * `{ ready: false }` when there is no current snapshot, and the lane is then not used.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { PGlite, PGliteOptions } from '@electric-sql/pglite'
import { readEmptyTemplate } from './template.js'
import { INT8_OID, NUMERIC_OID, parseInt8 } from './types.js'

interface Request {
  id: number
  text: string
  params: unknown[]
}

const port = parentPort!

async function open(): Promise<PGlite | null> {
  const template = readEmptyTemplate()
  if (template === null) return null
  const { PGlite } = await import('@electric-sql/pglite')
  const { module } = workerData as { module: PGliteOptions['pgliteWasmModule'] | null }
  // Nothing but functions runs here: a small buffer pool, and no extension is loaded.
  return PGlite.create({
    ...(module ? { pgliteWasmModule: module } : {}),
    loadDataDir: template,
    parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseInt8 },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  })
}

/**
 * Runs the text parser over some sample text before the lane reports ready: the engine's code
 * starts on the baseline compiler, and an analysis run cold takes two to three times as long as
 * a warm one, long enough for the first batches to come too late for their writes.
 */
async function warmUp(pg: PGlite): Promise<void> {
  const sample = 'The quick brown fox, 2024-03-14: jumped over https://example.com/lazy-dogs and 知识库. '.repeat(40)
  for (let i = 0; i < 3; i++) await pg.query(`SELECT sum(length(to_tsvector('english', $1 || g::text))) FROM generate_series(1, 100) AS g`, [sample])
}

try {
  const pg = await open()
  if (pg === null) {
    port.postMessage({ ready: false, error: 'No pre-migrated snapshot of this build.' })
  } else {
    port.on('message', (request: Request) => {
      pg.query<Record<string, unknown>>(request.text, request.params).then(
        (result) => port.postMessage({ id: request.id, rows: result.rows }),
        (err: unknown) => port.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) }),
      )
    })
    await warmUp(pg)
    port.postMessage({ ready: true })
  }
} catch (err) {
  port.postMessage({ ready: false, error: err instanceof Error ? err.message : String(err) })
}
