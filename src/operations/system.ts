import { z } from 'zod'
import { defineOperation, type Operation } from './operation.js'

const listSourcesTool = defineOperation({
  name: 'list_sources',
  description: 'List registered sources (id, name, local_path, last_commit, config, page count). Use it to find a source id for sync, search or list_pages.',
  input: z.strictObject({}),
  mutating: false,
  async run(ctx) {
    const { listSources } = await import('../sources/source-repository.js')
    const { db } = await ctx.brain()
    return { sources: await listSources(db) }
  },
})

const getStatsTool = defineOperation({
  name: 'get_stats',
  description: 'Counts of the brain: pages (by kind), chunks, embedded chunks, tags, sources and jobs by status. Use it to get a sense of size or embedding coverage.',
  input: z.strictObject({}),
  mutating: false,
  async run(ctx) {
    const { db, config } = await ctx.brain()
    const { rows } = await db.query<Record<string, number>>(`SELECT
      (SELECT count(*) FROM pages) AS pages,
      (SELECT count(*) FROM pages WHERE page_kind = 'markdown') AS markdown_pages,
      (SELECT count(*) FROM pages WHERE page_kind = 'code') AS code_pages,
      (SELECT count(*) FROM content_chunks) AS chunks,
      (SELECT count(*) FROM content_chunks WHERE embedding IS NOT NULL) AS embedded_chunks,
      (SELECT count(DISTINCT tag) FROM tags) AS tags,
      (SELECT count(*) FROM sources) AS sources`)
    const { openQueue } = await import('../queue/index.js')
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      return { ...rows[0], jobs: await queue.stats() }
    } finally {
      await queue.close()
    }
  },
})

const getHealthTool = defineOperation({
  name: 'get_health',
  description: 'Check that the brain answers: runs a trivial query and reports {status, db, engine, latency_ms}. A database problem is returned as an error with a hint.',
  input: z.strictObject({}),
  mutating: false,
  async run(ctx) {
    const started = Date.now()
    const { db, config } = await ctx.brain()
    await db.query('SELECT 1')
    return { status: 'ok', db: 'ok', engine: config.engine.kind, latency_ms: Date.now() - started }
  },
})

export const systemTools: Operation[] = [listSourcesTool, getStatsTool, getHealthTool]
