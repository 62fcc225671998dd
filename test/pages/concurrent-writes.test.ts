// test-runner: shares a process
import t from 'tap'
import { importPage, listPages } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

const WORDS = ['river', 'stone', 'lantern', 'harbor', 'meadow', 'copper', 'signal', 'orchard', 'quartz', 'willow', 'ember', 'falcon']

/** A page whose words overlap every other page's, in an order that differs per page and version. */
function note(i: number, version: number): string {
  const words = WORDS.map((_, k) => WORDS[(k * (i + 1) + version) % WORDS.length])
  const paragraphs = Array.from({ length: 3 + ((i + version) % 3) }, (_, p) => `${words.slice(p).join(' ')} paragraph ${p} of note ${i}.`)
  return `# Note ${i}\n\n${paragraphs.join('\n\n')}\n`
}

// Writers share the keyword statistics rows; pages written at once (the server engine runs them on
// separate connections) must all land, and the statistics must still match the chunks.
engineTest(t, 'pages written at once all land and keep the keyword statistics exact', async (t, { db }) => {
  const count = 40
  const create = await Promise.allSettled(Array.from({ length: count }, (_, i) => importPage(db, { slug: `notes/n${i}`, kind: 'markdown', content: note(i, 0) })))
  t.same(
    create.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    [],
    'every create succeeded',
  )
  const update = await Promise.allSettled(Array.from({ length: count }, (_, i) => importPage(db, { slug: `notes/n${i}`, kind: 'markdown', content: note(i, 1) })))
  t.same(
    update.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    [],
    'every update succeeded',
  )
  t.equal((await listPages(db, { limit: 1000 })).length, count)
  const {
    rows: [stats],
  } = await db.query<{ stats: string; actual: string }>('SELECT (SELECT chunk_count FROM search_corpus_stats WHERE id = 1)::text AS stats, (SELECT count(*) FROM content_chunks)::text AS actual')
  t.equal(stats.stats, stats.actual, 'corpus chunk count matches the chunks')
})
