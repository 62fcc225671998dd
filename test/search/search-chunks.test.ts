// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { search } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { context, importAll, slugs } from './helpers.js'

type Row = Record<string, string | null>

const COLUMNS = `chunk_id::text, page_id::text, chunk_index::text, slug, source_id, language, symbol_type, search_vector::text, search_length::text, search_tiers::text`

/** What search_chunks must hold: the same columns derived from the chunks and their pages now. */
async function expected(db: Database): Promise<Row[]> {
  const { rows } = await db.query<Row>(
    `SELECT c.id::text AS chunk_id, c.page_id::text, c.chunk_index::text, p.slug, p.source_id, c.language, c.symbol_type,
            c.search_vector::text, c.search_length::text,
            brain_search_tiers(c.search_vector, coalesce(c.search_length, search_vector_length(c.search_vector)), p.slug)::text AS search_tiers
     FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE c.search_vector IS NOT NULL ORDER BY c.id`,
  )
  return rows
}

async function kept(db: Database): Promise<Row[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM search_chunks ORDER BY chunk_id`)
  return rows
}

const CODE = `export function compactRuns(runs: number[]): number[] {\n  return runs.filter((run) => run > 0)\n}\n`

engineTest(t, 'search_chunks mirrors every chunk write, page move and delete', async (t, { db }) => {
  await importAll(
    db,
    [
      { slug: 'notes/lsm', content: '# LSM trees\n\nCompaction merges sorted runs into larger ones.' },
      { slug: 'notes/btree', content: '# B-trees\n\nPages split when they fill; compaction is rare.' },
      { slug: 'src/compact.ts', kind: 'code', path: 'src/compact.ts', content: CODE },
    ],
    null,
  )
  const first = await kept(db)
  t.ok(first.length >= 3, 'one row per chunk')
  t.ok(
    first.some((r) => r.language === 'typescript' || r.language === 'ts'),
    'code chunks carry their language',
  )
  t.same(first, await expected(db), 'after import')

  await importAll(db, [{ slug: 'notes/lsm', content: '# LSM trees\n\nLeveled compaction rewrites overlapping files.' }], null)
  t.same(await kept(db), await expected(db), 'after a re-import replaced the chunks')

  await db.query(`UPDATE content_chunks SET language = 'prose', chunk_index = chunk_index + 10 WHERE page_id = (SELECT id FROM pages WHERE slug = 'notes/btree')`)
  await db.query(`UPDATE content_chunks SET chunk_text = chunk_text || ' quokka' WHERE page_id = (SELECT id FROM pages WHERE slug = 'notes/btree')`)
  t.same(await kept(db), await expected(db), 'after direct updates of copied columns and of the text')

  const before = await kept(db)
  await db.query(`UPDATE content_chunks SET embedded_at = now()`)
  t.same(await kept(db), before, 'an update of other columns changes nothing')

  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
  await db.query(`UPDATE pages SET slug = 'archive/btree' WHERE slug = 'notes/btree'`)
  await db.query(`UPDATE pages SET source_id = 'work' WHERE slug = 'notes/lsm'`)
  t.same(await kept(db), await expected(db), 'after a page moved to another slug and another source')

  await db.query(`UPDATE content_chunks SET search_vector = NULL WHERE page_id = (SELECT id FROM pages WHERE slug = 'src/compact.ts')`)
  t.same(await kept(db), await expected(db), 'a chunk without a search vector has no row')

  await db.query(`DELETE FROM pages WHERE slug = 'notes/lsm'`)
  t.same(await kept(db), await expected(db), 'after a page delete')
})

engineTest(t, 'keyword search follows a moved page: new slug, its boost and its excludes', async (t, { db }) => {
  await importAll(
    db,
    [
      { slug: 'notes/heron', content: 'Herons wade. Herons fish. Herons nest in colonies.' },
      { slug: 'notes/egret', content: 'Egrets wade in shallow water with long white plumes; herons are their larger and greyer cousins.' },
    ],
    null,
  )
  const ctx = context(db, undefined, { sourceBoostRaw: 'originals/:3' })
  t.equal(slugs(await search(ctx, 'herons'))[0], 'notes/heron')
  await db.query(`UPDATE pages SET slug = 'originals/egret' WHERE slug = 'notes/egret'`)
  t.equal(slugs(await search(ctx, 'herons'))[0], 'originals/egret', 'the moved page is found under its new slug and boosted by it')
  const excluded = context(db, undefined, { excludeRaw: 'originals/' })
  t.same(slugs(await search(excluded, 'herons')), ['notes/heron'], 'and excluded by it')
})
