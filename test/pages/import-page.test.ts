// test-runner: shares a process
import t from 'tap'
import { findPage, importPage, listChunks, listPages, deletePage, changePageTag } from '../../src/pages/index.js'
import { toVectorLiteral } from '../../src/embedding/index.js'
import { engineTest } from '../helpers/engines.js'

const NOTE = `---
title: Ada Lovelace
type: person
tags: [history, computing]
---
# Ada Lovelace

Wrote the first published algorithm for the Analytical Engine.

## Timeline

- 1843: published the notes
`

engineTest(t, 'a markdown page round-trips: fields, tags, timeline, chunks', async (t, { db }) => {
  const result = await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE })
  t.equal(result.status, 'created')
  const page = await findPage(db, 'default', 'people/ada')
  t.ok(page)
  t.equal(page!.title, 'Ada Lovelace')
  t.equal(page!.type, 'person')
  t.equal(page!.pageKind, 'markdown')
  t.same(page!.tags, ['computing', 'history'])
  t.match(page!.compiledTruth, /Analytical Engine/)
  t.notMatch(page!.compiledTruth, /1843/, 'timeline is not in compiled truth')
  t.match(page!.timeline, /1843: published/)
  t.equal(page!.contentHash, result.contentHash)
  t.same([page!.ingestedVia, page!.ingestedAt, page!.sourceUri, page!.sourceKind], [null, null, null, null], 'no provenance given: NULL')
  const chunks = await listChunks(db, page!.id)
  t.same(
    chunks.map((c) => c.chunkSource),
    ['compiled_truth', 'timeline'],
  )
  t.ok(
    chunks.every((c) => c.language === null && c.symbolName === null && c.startLine === null),
    'markdown chunks carry no code metadata',
  )
  const listed = await listPages(db, { tag: 'history' })
  t.same(
    listed.map((p) => p.slug),
    ['people/ada'],
  )
  t.same(await listPages(db, { type: 'project' }), [])
})

engineTest(t, 'identical content is skipped and changes nothing; a tag change is an update', async (t, { db }) => {
  const first = await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE })
  const before = await findPage(db, 'default', 'people/ada')
  const again = await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE })
  t.equal(again.status, 'skipped')
  t.equal(again.contentHash, first.contentHash)
  const after = await findPage(db, 'default', 'people/ada')
  t.same(after!.updatedAt, before!.updatedAt, 'updated_at untouched')
  const retagged = await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE.replace('[history, computing]', '[history]') })
  t.equal(retagged.status, 'updated')
  t.same((await findPage(db, 'default', 'people/ada'))!.tags, ['history'])
})

engineTest(t, 're-import reuses embeddings of unchanged chunks and clears changed ones together', async (t, { db }) => {
  const paragraphs = Array.from({ length: 6 }, (_, i) => `## Section ${i}\n\n${`Paragraph ${i} talks about topic ${i}. `.repeat(60)}`)
  const imported = await importPage(db, { slug: 'notes/long', kind: 'markdown', content: paragraphs.join('\n\n') })
  const vector = toVectorLiteral(Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0)))
  await db.query(`UPDATE content_chunks SET embedding = $1::vector, embedded_at = now(), model = 'test-model' WHERE page_id = $2`, [vector, imported.pageId])
  const before = await listChunks(db, imported.pageId)
  t.ok(before.length >= 3, `several chunks (${before.length})`)
  paragraphs[paragraphs.length - 1] = '## Section 5\n\nCompletely rewritten ending.'
  const reimported = await importPage(db, { slug: 'notes/long', kind: 'markdown', content: paragraphs.join('\n\n') })
  t.equal(reimported.status, 'updated')
  const after = await listChunks(db, imported.pageId)
  const byIndex = new Map(before.map((c) => [c.chunkIndex, c]))
  let kept = 0
  let cleared = 0
  for (const chunk of after) {
    const old = byIndex.get(chunk.chunkIndex)
    if (old && old.chunkText === chunk.chunkText) {
      t.ok(chunk.embedded && chunk.model === 'test-model' && chunk.embeddedAt !== null, `chunk ${chunk.chunkIndex} kept its embedding`)
      kept++
    } else {
      t.same([chunk.embedded, chunk.embeddedAt, chunk.model], [false, null, null], `chunk ${chunk.chunkIndex} changed: embedding, embedded_at and model cleared`)
      cleared++
    }
  }
  t.ok(kept > 0 && cleared > 0, `kept ${kept}, cleared ${cleared}`)
})

engineTest(t, 'a code page records language, symbols, lines; its hash covers language and chunker version', async (t, { db }) => {
  const source = `/** Adds two numbers. */\nexport function add(a: number, b: number): number {\n  return a + b\n}\n\nexport class Counter {\n  count = 0\n  increment(): void {\n    this.count++\n  }\n}\n`
  const result = await importPage(db, { slug: 'src/math.ts', kind: 'code', content: source, path: 'src/math.ts' })
  t.equal(result.pageKind, 'code')
  const page = await findPage(db, 'default', 'src/math.ts')
  t.equal(page!.pageKind, 'code')
  t.equal(page!.type, 'code')
  const chunks = await listChunks(db, page!.id)
  t.ok(
    chunks.every((c) => c.language === 'typescript'),
    'language on every chunk',
  )
  t.ok(chunks.every((c) => c.chunkSource !== 'compiled_truth' || c.language !== null))
  const names = chunks.map((c) => c.symbolName).filter(Boolean)
  t.ok(names.includes('add') || chunks.some((c) => c.symbolType === 'merged'), `symbols found: ${names.join(', ')}`)
  t.ok(
    chunks.every((c) => c.startLine !== null && c.endLine !== null),
    'line ranges recorded',
  )
  const asJs = await importPage(db, { slug: 'src/math.js', kind: 'code', content: source, path: 'src/math.js' })
  t.not(asJs.contentHash, result.contentHash, 'same text in another language hashes differently')
})

engineTest(t, 'pages live per source; delete removes chunks and tags', async (t, { db }) => {
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
  await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE })
  await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE, sourceId: 'work' })
  t.equal((await listPages(db)).length, 2, 'same slug in two sources')
  const page = await findPage(db, 'work', 'people/ada')
  await changePageTag(db, page!.id, 'extra', true, 'tag')
  t.ok(await deletePage(db, 'work', 'people/ada'))
  t.notOk(await deletePage(db, 'work', 'people/ada'), 'second delete finds nothing')
  const orphans = await db.query<{ n: number }>(`SELECT (SELECT count(*) FROM content_chunks WHERE page_id = $1) + (SELECT count(*) FROM tags WHERE page_id = $1) AS n`, [page!.id])
  t.equal(orphans.rows[0]!.n, 0, 'chunks and tags went with the page')
  t.ok(await findPage(db, 'default', 'people/ada'), 'the other source keeps its page')
})

engineTest(t, 'malformed input gets a clear error and the stored page survives', async (t, { db }) => {
  await importPage(db, { slug: 'people/ada', kind: 'markdown', content: NOTE })
  const stored = await findPage(db, 'default', 'people/ada')
  await t.rejects(importPage(db, { slug: 'people/ada', kind: 'markdown', content: '---\ntitle: [unclosed\n---\nbody' }), { code: 'YAML_PARSE' })
  await t.rejects(importPage(db, { slug: 'people/ada', kind: 'markdown', content: 'bad\u0000bytes' }), { code: 'NULL_BYTES' })
  await t.rejects(importPage(db, { slug: 'people/ada', kind: 'markdown', content: 'x'.repeat(6 * 1024 * 1024) }), { code: 'page_too_large' })
  await t.rejects(importPage(db, { slug: '../escape', kind: 'markdown', content: 'x' }), { code: 'invalid_slug' })
  await t.rejects(importPage(db, { slug: '', kind: 'markdown', content: 'x' }), { code: 'invalid_slug' })
  const marker = `brain_js_ran_${Date.now()}`
  await t.rejects(importPage(db, { slug: 'evil', kind: 'markdown', content: `---js\n{ title: (globalThis.${marker} = 1, 'x') }\n---\nbody` }), { code: 'frontmatter_language_refused' })
  t.notOk(marker in globalThis, '---js front matter never runs')
  t.same(await findPage(db, 'default', 'people/ada'), stored, 'the stored page is unchanged')
})

engineTest(t, 'a page for an unknown source is a clear error; raw SQL errors reach agents as DatabaseError', async (t, { db }) => {
  await t.rejects(importPage(db, { slug: 'a/b', kind: 'markdown', content: '# x', sourceId: 'nosuch' }), { code: 'source_not_found', errorClass: 'NotFoundError' })
  t.same(await listPages(db), [], 'nothing written')
  const { serializeError } = await import('../../src/errors/index.js')
  const err = await db.query('SELECT * FROM no_such_table').then(
    () => null,
    (e: unknown) => e,
  )
  const envelope = serializeError(err)
  t.equal(envelope.class, 'DatabaseError')
  t.equal(envelope.code, 'sqlstate_42P01', 'undefined_table keeps its SQLSTATE')
})
