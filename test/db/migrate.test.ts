// test-runner: shares a process
import t from 'tap'
import { loadMigrations, migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/types.js'
import { createPgDatabase, ENGINES, engineTest, type EngineName } from '../helpers/engines.js'

const SPEC_VERSIONS = [24, 25, 26, 27, 28, 81]

engineTest(t, 'a migrated brain has every spec migration in its ledger and re-running is a no-op', async (t, { db }) => {
  const { rows } = await db.query<{ version: number; applied: boolean }>('SELECT version, applied FROM brain_migrations ORDER BY version')
  const versions = rows.map((r) => r.version)
  for (const v of SPEC_VERSIONS) t.ok(versions.includes(v), `ledger has v${v}`)
  t.same(
    versions,
    loadMigrations().map((m) => m.version),
    'every migration file is recorded once',
  )
  const again = await migrate(db)
  t.same(again, { applied: [], skipped: [] }, 'second run applies nothing')
})

engineTest(t, 'capability-gated migrations run only where the engine has the capability', async (t, { db }) => {
  const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('access_tokens') IS NOT NULL AS present`)
  t.equal(rows[0]!.present, db.capabilities.httpServer, 'access_tokens exists exactly on the server engine')
  const rls = await db.query<{ enabled: boolean }>(`SELECT relrowsecurity AS enabled FROM pg_class WHERE relname = 'pages'`)
  t.equal(rls.rows[0]!.enabled, db.capabilities.rowLevelSecurity, 'row-level security on pages only where supported')
})

engineTest(t, 'the page_kind check constraint rejects unknown kinds', async (t, { db }) => {
  await db.query(`INSERT INTO pages (slug, content_hash) VALUES ('a', 'h')`)
  const { rows } = await db.query<{ page_kind: string }>(`SELECT page_kind FROM pages WHERE slug = 'a'`)
  t.equal(rows[0]!.page_kind, 'markdown', 'defaults to markdown')
  await t.rejects(db.query(`INSERT INTO pages (slug, content_hash, page_kind) VALUES ('b', 'h', 'image')`), 'image is refused')
})

engineTest(t, 'the chunk search_vector trigger weights doc comment and qualified name above text', async (t, { db }) => {
  const page = await db.query<{ id: number }>(`INSERT INTO pages (slug, content_hash) VALUES ('c', 'h') RETURNING id`)
  await db.query(`INSERT INTO content_chunks (page_id, chunk_index, chunk_text, doc_comment, symbol_name_qualified) VALUES ($1, 0, 'body words', 'explains parser', 'Parser.parse')`, [
    page.rows[0]!.id,
  ])
  const { rows } = await db.query<{ sv: string }>(`SELECT search_vector::text AS sv FROM content_chunks`)
  t.match(rows[0]!.sv, /'parser':\d+A/, 'doc comment terms at weight A')
  t.match(rows[0]!.sv, /'bodi':\d+B|'body':\d+B/, 'chunk text at weight B')
  await db.query(`UPDATE content_chunks SET chunk_text = 'changed text'`)
  const after = await db.query<{ sv: string }>(`SELECT search_vector::text AS sv FROM content_chunks`)
  t.match(after.rows[0]!.sv, /'chang':\d+B/, 'update of chunk_text refreshes the vector')
})

/** The tables of a brain made before v24: no sources, no page_kind, no code metadata. */
const PRE_V24_SCHEMA = `
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE pages (id bigserial PRIMARY KEY, slug text NOT NULL UNIQUE, title text NOT NULL DEFAULT '', type text NOT NULL DEFAULT 'note',
  compiled_truth text NOT NULL DEFAULT '', timeline text NOT NULL DEFAULT '', frontmatter jsonb NOT NULL DEFAULT '{}', content_hash text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE tags (page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE, tag text NOT NULL, PRIMARY KEY (page_id, tag));
CREATE TABLE content_chunks (id bigserial PRIMARY KEY, page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE, chunk_index integer NOT NULL,
  chunk_text text NOT NULL, embedding vector(1536), embedded_at timestamptz, token_count integer NOT NULL DEFAULT 0);
CREATE TABLE links (id bigserial PRIMARY KEY, from_page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  to_page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE, link_type text NOT NULL);
CREATE TABLE config (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO pages (slug, title, compiled_truth, content_hash) VALUES ('people/ada', 'Ada', 'Wrote the first program.', 'old');
INSERT INTO tags VALUES (1, 'history');
INSERT INTO content_chunks (page_id, chunk_index, chunk_text) VALUES (1, 0, 'Wrote the first program.');
INSERT INTO config VALUES ('auto_link', 'true');
`

async function emptyDatabase(engine: EngineName): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openPglite({ dataDir: 'memory', memory: true })
    return { db, cleanup: () => db.close() }
  }
  const created = await createPgDatabase({ migrated: false })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  return {
    db,
    cleanup: async () => {
      await db.close()
      await created.drop()
    },
  }
}

for (const engine of ENGINES) {
  t.test(`the bootstrap step upgrades a pre-v24 brain without losing data [${engine}]`, async (t) => {
    const { db, cleanup } = await emptyDatabase(engine)
    t.teardown(cleanup)
    await db.exec(PRE_V24_SCHEMA)
    const result = await migrate(db)
    t.ok(result.applied.includes(25) && result.applied.includes(81), 'spec migrations applied')
    const page = await db.query<Record<string, unknown>>(`SELECT slug, title, source_id, page_kind, ingested_via, search_vector IS NOT NULL AS has_sv FROM pages`)
    t.same(page.rows, [{ slug: 'people/ada', title: 'Ada', source_id: 'default', page_kind: 'markdown', ingested_via: null, has_sv: false }], 'page kept, new columns filled or NULL')
    const chunk = await db.query<{ search_vector: string | null; symbol_name: string | null }>(`SELECT search_vector::text, symbol_name FROM content_chunks`)
    t.match(chunk.rows[0]!.search_vector, /program/, 'v28 backfilled the chunk search_vector')
    t.equal(chunk.rows[0]!.symbol_name, null, 'code metadata NULL for markdown chunks')
    const tags = await db.query<{ tag: string }>(`SELECT tag FROM tags`)
    t.same(tags.rows, [{ tag: 'history' }], 'tags kept')
    await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
    await db.query(`INSERT INTO pages (source_id, slug, content_hash) VALUES ('work', 'people/ada', 'x')`)
    t.pass('the same slug may now exist in another source')
    t.same(await migrate(db), { applied: [], skipped: [] }, 're-running is a no-op')
  })
}
