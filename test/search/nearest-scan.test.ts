// test-runner: shares a process
import t from 'tap'
import type { Database, SqlExecutor } from '../../src/db/types.js'
import { query, vectorSearch } from '../../src/search/index.js'
import { EXACT_NEAREST_MAX, embeddedChunks, nearestTransaction } from '../../src/search/vector.js'
import { engineTest } from '../helpers/engines.js'
import { context, slugs, trigramEmbedder } from './helpers.js'

const WORDS = ['harbour', 'lantern', 'orchard', 'glacier', 'meadow', 'copper', 'violin', 'thunder', 'saffron', 'granite', 'willow', 'ember']
const note = (i: number): string => `${WORDS[i % 12]} ${WORDS[(i * 5 + 3) % 12]} ${WORDS[(i * 7 + 1) % 12]} note ${i}`

/** A view of `db` whose transactions explain each nearest-neighbour statement before running it, in the same transaction. */
function explaining(db: Database, plans: string[]): Database {
  const spied = (tx: SqlExecutor): SqlExecutor => ({
    ...tx,
    query: async (sql, params, options) => {
      if (sql.trimStart().startsWith('WITH nearest')) {
        const { rows } = await tx.query<Record<string, string>>(`EXPLAIN ${sql}`, params)
        plans.push(rows.map((r) => Object.values(r)[0]).join('\n'))
      }
      return tx.query(sql, params, options)
    },
  })
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(spied(tx))) }
}

t.test('the nearest pass compares every vector up to EXACT_NEAREST_MAX, and reads the index past it', async (t) => {
  t.same(nearestTransaction(50, EXACT_NEAREST_MAX), { efSearch: 50, indexOrder: false })
  t.same(nearestTransaction(50, EXACT_NEAREST_MAX + 1), { efSearch: 50, indexOrder: true })
})

engineTest(t, 'a brain past EXACT_NEAREST_MAX vectors finds its nearest chunks through the HNSW index', async (t, { db }) => {
  const embedder = trigramEmbedder()
  const count = EXACT_NEAREST_MAX + 20
  // Written in one statement each (importing them one by one took seconds): the embedded notes,
  // and chunks without vectors around them, as in a brain still being embedded.
  const texts = Array.from({ length: count }, (_, i) => note(i))
  const vectors = await embedder.embed(texts, { purpose: 'passage' })
  await db.query(
    `WITH rows AS (SELECT n, t, v FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(t, v, n)),
     p AS (INSERT INTO pages (slug, title, content_hash, page_kind, compiled_truth)
           SELECT 'notes/n-' || (n - 1), 'N ' || (n - 1), md5(t), 'markdown', t FROM rows RETURNING id, slug)
     INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, embedding, model, embedded_at)
     SELECT p.id, 0, r.t, 'compiled_truth', r.v::vector, $3, now() FROM p JOIN rows r ON p.slug = 'notes/n-' || (r.n - 1)`,
    [texts, vectors.map((v) => `[${v.join(',')}]`), embedder.model],
  )
  await db.query(
    `WITH p AS (INSERT INTO pages (slug, title, content_hash, page_kind, compiled_truth)
                SELECT 'plain/p-' || i, 'P ' || i, md5(i::text), 'markdown', $1 || i FROM generate_series(0, 39) i RETURNING id, compiled_truth)
     INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source) SELECT id, 0, compiled_truth, 'compiled_truth' FROM p`,
    [`${note(137)} unembedded `],
  )
  t.equal(await embeddedChunks(db, embedder.model), EXACT_NEAREST_MAX + 1, 'counted up to one past the limit')
  t.equal(await embeddedChunks(db, 'another-model'), 0)

  const plans: string[] = []
  const ctx = context(explaining(db, plans), embedder)
  const target = 137
  const found = await vectorSearch(ctx, note(target), { limit: 5 })
  t.equal(slugs(found)[0], `notes/n-${target}`, 'the page whose text is the query comes first')
  t.notOk(
    slugs(found).some((s) => s.startsWith('plain/')),
    'chunks without vectors are never neighbours',
  )
  const hybrid = await query(ctx, note(target), { limit: 5 })
  t.same(hybrid.ran, ['keyword', 'vector'])
  t.equal(slugs(hybrid)[0], `notes/n-${target}`)
  t.ok(plans.length >= 2, 'the vector and hybrid statements were explained')
  for (const plan of plans) t.match(plan, /content_chunks_embedding_hnsw_idx/, 'the nearest chunks come from the HNSW index')
})
