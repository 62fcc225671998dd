import * as z from 'zod'
import type { SourceRecord } from '../intake/sources/index.js'
import { defineOperation, type Operation } from './operation.js'

/** One source on one line: id, directory, strategy, globs and bookmark. */
export function sourceLine(source: Pick<SourceRecord, 'id' | 'localPath' | 'lastCommit' | 'config'>): string {
  const { strategy, include, exclude, syncEnabled } = source.config
  const globs = [...include.map((g) => `+${g}`), ...exclude.map((g) => `-${g}`)].join(' ')
  const bookmark = source.lastCommit ? source.lastCommit.slice(0, 12) : 'never synced'
  return `${source.id}  ${source.localPath ?? '(no path)'}  ${strategy}${syncEnabled ? '' : ', sync off'}${globs ? `  ${globs}` : ''}  [${bookmark}]`
}

const listSourcesTool = defineOperation({
  name: 'list_sources',
  description: 'List registered sources (id, name, local_path, last_commit, config, page count). Use it to find a source id for sync, search or list_pages.',
  input: z.strictObject({}),
  mutating: false,
  async run(ctx) {
    const { listSources } = await import('../intake/sources/source-repository.js')
    const { db } = await ctx.brain()
    return { sources: await listSources(db) }
  },
  present: {
    json: (r) => r.sources,
    text: (r) => r.sources.map((s) => `${sourceLine(s)}  ${s.pages} page${s.pages === 1 ? '' : 's'}`).join('\n'),
  },
  cli: {
    path: ['sources', 'list'],
    description: 'List sources with their directory, strategy, bookmark and page count',
    options: [],
    aliases: { paths: [['repos', 'list']], notice: 'brain: `brain repos` is deprecated and will be removed; use `brain sources` (same subcommands and flags).' },
  },
})

const getStatsTool = defineOperation({
  name: 'get_stats',
  description: 'Counts of the brain: pages (by kind, by type and by source), chunks, embedded chunks, tags, sources and jobs by status. Use it to get a sense of size or embedding coverage.',
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
    const groups = await db.query<{ kind: string; name: string; n: number }>(
      `SELECT 'type' AS kind, type AS name, count(*)::int AS n FROM pages GROUP BY type
       UNION ALL SELECT 'source', source_id, count(*)::int FROM pages GROUP BY source_id`,
    )
    // Lists, not maps: type names and source ids are the user's, and keys get renamed on the way out.
    const byType = groups.rows.filter((g) => g.kind === 'type').map((g) => ({ type: g.name, pages: Number(g.n) }))
    const bySource = groups.rows.filter((g) => g.kind === 'source').map((g) => ({ source_id: g.name, pages: Number(g.n) }))
    const order = (a: { pages: number }, b: { pages: number }): number => b.pages - a.pages
    byType.sort(order)
    bySource.sort(order)
    const { openQueue } = await import('../queue/index.js')
    const queue = await openQueue({ db, config, logger: ctx.logger })
    try {
      return { ...rows[0], by_type: byType, by_source: bySource, jobs: await queue.stats() }
    } finally {
      await queue.close()
    }
  },
  present: { text: (r) => statsText(r as unknown as StatsView) },
  cli: {
    path: ['stats'],
    description: 'Counts of the brain: pages by kind, type and source, chunks, tags, sources and jobs',
    options: [],
  },
})

interface StatsView {
  pages: number
  markdownPages: number
  codePages: number
  chunks: number
  embeddedChunks: number
  tags: number
  sources: number
  byType: Array<{ type: string; pages: number }>
  bySource: Array<{ sourceId: string; pages: number }>
}

function statsText(r: StatsView): string {
  const list = (m: Array<[string, number]>): string => m.map(([k, n]) => `${k} ${n}`).join(', ')
  return [
    `pages: ${r.pages} (${r.markdownPages} markdown, ${r.codePages} code)`,
    `by type: ${list(r.byType.map((t) => [t.type, t.pages])) || '-'}`,
    `by source: ${list(r.bySource.map((t) => [t.sourceId, t.pages])) || '-'}`,
    `chunks: ${r.chunks} (${r.embeddedChunks} embedded), tags: ${r.tags}, sources: ${r.sources}`,
  ].join('\n')
}

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
  present: { text: (r) => `${r.status}  database ${r.db} (${r.engine}, ${r.latencyMs} ms)` },
  cli: {
    path: ['health'],
    description: 'Check that the brain answers: one trivial query, its engine and how long it took',
    details: 'Exit code 1, with the error and a hint, when the database does not answer. On a thin client it asks the remote brain. `brain doctor` runs every check.',
    options: [],
    connectOnce: true,
  },
})

export const systemTools: Operation[] = [listSourcesTool, getStatsTool, getHealthTool]
