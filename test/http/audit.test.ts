// test-runner: shares a process
/**
 * Audit rows are group-committed: concurrent requests share INSERT statements, every row is
 * written before its writer resumes, and one bad row does not cost the others theirs.
 */
import t from 'tap'
import type { Database, SqlParam } from '../../src/db/types.js'
import { writeAudit, type AuditRow } from '../../src/http/index.js'
import { memoryLogger, silentLogger } from '../../src/util/logger.js'
import { openTestDatabase } from '../helpers/engines.js'

function row(i: number, tokenId: number | null = null): AuditRow {
  return { tokenId, clientIp: '127.0.0.1', route: '/mcp', method: 'tools/call', toolName: `tool-${i}`, status: 200, errorCode: null, durationMs: i }
}

function countingInserts(db: Database): { db: Database; inserts: () => number } {
  let inserts = 0
  const counted = Object.create(db) as Database
  counted.query = async <R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]) => {
    if (sql.includes('INSERT INTO mcp_request_log')) inserts++
    return db.query<R>(sql, params)
  }
  return { db: counted, inserts: () => inserts }
}

async function toolNames(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ tool_name: string }>('SELECT tool_name FROM mcp_request_log ORDER BY duration_ms')
  return rows.map((r) => r.tool_name)
}

t.test('concurrent rows share statements and are all written before their writers resume [postgres]', async (t) => {
  const test = await openTestDatabase('postgres')
  t.teardown(test.cleanup)
  const { db, inserts } = countingInserts(test.db)
  const logger = silentLogger
  const seen: number[] = []
  await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      await writeAudit(db, row(i), logger)
      const { rows } = await test.db.query<{ n: string }>('SELECT count(*)::text AS n FROM mcp_request_log WHERE tool_name = $1', [`tool-${i}`])
      seen.push(Number(rows[0]!.n))
    }),
  )
  t.same(
    seen,
    Array.from({ length: 50 }, () => 1),
    'each writer finds its own row once it resumes',
  )
  t.equal((await toolNames(test.db)).length, 50)
  t.ok(inserts() < 50 && inserts() >= 2, `50 rows took ${inserts()} statements`)
  await writeAudit(db, row(50), logger)
  t.equal((await toolNames(test.db)).length, 51, 'a lone row is written at once')
})

t.test('a row that cannot be written does not take its batch with it [postgres]', async (t) => {
  const test = await openTestDatabase('postgres')
  t.teardown(test.cleanup)
  const logger = memoryLogger()
  // Token 999999 does not exist: its row breaks the foreign key, the others are fine.
  await Promise.all([writeAudit(test.db, row(1), logger), writeAudit(test.db, row(2), logger), writeAudit(test.db, row(3, 999999), logger), writeAudit(test.db, row(4), logger)])
  t.same(await toolNames(test.db), ['tool-1', 'tool-2', 'tool-4'])
  t.equal(logger.lines.filter((l) => l.level === 'error').length, 1, 'the lost row is logged')
})
