import t from 'tap'
import { countStaleChunks, embedStale } from '../../src/embedding/store/index.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { configureLocalEmbeddings, disposeLocalEmbeddings } from '../../src/embedding/local/local-runtime.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

t.teardown(async () => {
  await disposeLocalEmbeddings()
})

const paragraph = (page: number, section: number): string => `Paragraph about topic ${section} of page ${page}: the worker claims a job, runs the handler and reports back. `.repeat(3)

// Loading a runtime's model costs seconds: each mode loads once and serves both engines' brains,
// the run after a cancel included, as one process's runtime does.
let loaded: 'fast' | 'native' | null = null

for (const mode of ['fast', 'native'] as const) {
  engineTest(t, `the job signal stops a local embed mid-run (${mode}); what is left stays stale for the next run`, async (t, { db }) => {
    if (loaded !== mode) {
      await disposeLocalEmbeddings()
      configureLocalEmbeddings({ mode, maxWorkers: 2 })
      loaded = mode
    }
    // Many small chunks: what is tested is where the run stops, and embedding costs by the word.
    for (let i = 0; i < 32; i++) {
      const body = `## Section 0\n\n${paragraph(i, 0)}`
      await importPage(db, { slug: `notes/cancel-${i}`, kind: 'markdown', content: `# Page ${i}\n\n${body}` })
    }
    const total = await countStaleChunks(db)
    t.ok(total >= 32, `${total} chunks to embed`)
    const provider = createEmbeddingProvider({ provider: 'local' })
    const controller = new AbortController()
    let progressed = 0
    const started = Date.now()
    const run = embedStale(db, provider, {
      signal: controller.signal,
      batchSize: 8,
      onProgress: (p) => {
        progressed = p.done
        // Cancel once the run is under way, as a job timeout or shutdown would.
        if (p.done >= 8) controller.abort(new Error('job cancelled'))
      },
    })
    await t.rejects(run, /job cancelled/)
    t.ok(Date.now() - started < 60_000, 'the run stopped')
    const left = await countStaleChunks(db)
    t.ok(progressed >= 8, `progress reported ${progressed} chunks before the cancel`)
    t.ok(left > 0 && left < total, `${total - left} chunks embedded, ${left} left stale`)
    const rest = await embedStale(db, provider)
    t.equal(rest.embedded, left, 'the next run embeds exactly what was left')
    t.equal(await countStaleChunks(db), 0)
  })
}
