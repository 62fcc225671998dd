import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/index.js'
import type { EngineConfig } from '../../src/db/index.js'

const MiB = 1024 * 1024

function engineIn(dir: string, bufferPoolBytes?: number): EngineConfig {
  return {
    kind: 'pglite',
    dataDir: join(dir, 'db'),
    url: null,
    statementTimeoutMs: 0,
    idleTxTimeoutMs: 0,
    clientCheckIntervalMs: 0,
    retryConnect: false,
    ...(bufferPoolBytes !== undefined ? { bufferPoolBytes } : {}),
  }
}

async function sharedBuffers(engine: EngineConfig, smallBufferPool: boolean): Promise<string> {
  const db = await openDatabase(engine, { smallBufferPool })
  try {
    const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers')
    return rows[0]!.shared_buffers
  } finally {
    await db.close()
  }
}

t.test('the embedded engine starts with the configured buffer pool; a one-shot command with the smaller one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-buffer-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  t.equal(await sharedBuffers(engineIn(dir), true), '16MB', 'a one-shot command: 16 MB')
  t.equal(await sharedBuffers(engineIn(dir, 24 * MiB), false), '24MB', 'a long-lived open: the configured pool')
  t.equal(await sharedBuffers(engineIn(dir, 4 * MiB), true), '4MB', 'a one-shot command: the configured pool when it is smaller')
  t.equal(await sharedBuffers(engineIn(dir), false), '128MB', 'unset: PostgreSQL’s 128 MB')
})
