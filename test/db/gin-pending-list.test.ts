// test-runner: shares a process
import t from 'tap'
import { engineTest } from '../helpers/engines.js'

/** Pages of 8 kB a 256 kB pending list can span, with one for its head. */
const MAX_PENDING_PAGES = 256 / 8 + 1

engineTest(t, 'every GIN index keeps a small pending list', async (t, { db }) => {
  const { rows } = await db.query<{ name: string; options: string[] | null }>(
    `SELECT c.relname AS name, c.reloptions AS options FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
     WHERE a.amname = 'gin' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
  )
  t.ok(rows.length >= 3, 'the full-text and trigram indexes are GIN indexes')
  for (const row of rows) t.ok((row.options ?? []).includes('gin_pending_list_limit=256'), `${row.name} declares a 256 kB pending list`)
})

engineTest(t, 'a large write leaves at most 256 kB pending, so searches do not scan a long list', async (t, { db }) => {
  const page = await db.query<{ id: number }>(`INSERT INTO pages (slug, content_hash, page_kind) VALUES ('src/big.ts', 'h', 'code') RETURNING id`)
  // About half a megabyte of distinct entries: twice what the list may hold, and far less than
  // PostgreSQL's default 4 MB list, which would leave them all pending.
  await db.query(
    `INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, language)
     SELECT $1, n, 'export const x = 1\n' || (SELECT string_agg('word' || n || '_' || w, ' ') FROM generate_series(1, 60) w),
            'code', 'typescript'
     FROM generate_series(1, 600) n`,
    [page.rows[0]!.id],
  )
  const { rows } = await db.query<{ name: string; pages: number }>(
    `SELECT c.relname AS name, gin_clean_pending_list(c.oid)::int AS pages FROM pg_class c
     WHERE c.relname IN ('search_chunks_vector_idx', 'content_chunks_code_body_trgm_idx') ORDER BY 1`,
  )
  t.equal(rows.length, 2)
  for (const row of rows) t.ok(row.pages <= MAX_PENDING_PAGES, `${row.name}: ${row.pages} pages were still pending`)
  const hit = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_chunks WHERE search_vector @@ to_tsquery('english', 'word600_7')`)
  t.equal(hit.rows[0]!.n, 1, 'the merged entries are found')
})
