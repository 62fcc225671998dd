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
    port.postMessage({ ready: true })
  }
} catch (err) {
  port.postMessage({ ready: false, error: err instanceof Error ? err.message : String(err) })
}
