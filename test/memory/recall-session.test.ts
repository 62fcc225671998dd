// test-runner: shares a process
/**
 * Recall inside a real session, on both engines: each page once per session even when recalls
 * of one session run at once, a fresh start after compaction, a very long turn read by its head
 * and tail, an unknown source refused, the source a working directory lies in, and what
 * start_session says of the active source alone.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { recall, sourceOfDirectory, startSession } from '../../src/memory/index.js'
import { findTool } from '../../src/operations/index.js'
import { importPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

async function page(db: Database, slug: string, content: string, sourceId?: string): Promise<void> {
  await importPage(db, { slug, kind: 'markdown', content, path: `${slug}.md`, sourceId })
}

const person = (title: string, summary: string) => `---\ntitle: ${title}\ntype: person\nsummary: ${summary}\n---\n\n${title}.\n`
const slugs = (r: { inject: Array<{ slug: string }> }) => r.inject.map((i) => i.slug)

async function addSource(db: Database, id: string, localPath: string | null = null): Promise<void> {
  await db.query(`INSERT INTO sources (id, name, local_path) VALUES ($1, $1, $2)`, [id, localPath])
}

function operationCtx(db: Database) {
  return {
    brain: async () => ({ db, config: {} as never }),
    logger: silentLogger,
    dryRun: false,
    remote: false,
    scopes: null,
    remoteSlugPrefixes: [],
  }
}

engineTest(t, 'recall: concurrent recalls of one session volunteer each page exactly once', async (t, { db }) => {
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'Runs the Harrowgate pilot.'))
  await page(db, 'people/odile-brackenridge', person('Odile Brackenridge', 'Counsel at Mirefield.'))
  const text = 'Prep the call with Wren Fenwhistle and Odile Brackenridge'
  const results = await Promise.all(Array.from({ length: 8 }, () => recall(db, { text, sessionId: 'race-1' })))
  const told = results.flatMap(slugs).sort()
  t.same(told, ['people/odile-brackenridge', 'people/wren-fenwhistle'], 'each page told once across all the calls')
  for (const r of results) if (r.inject.length === 0) t.equal(r.tokens, 0, 'a call that claimed nothing counts no tokens')
  t.same(slugs(await recall(db, { text, sessionId: 'race-1' })), [], 'and not again afterwards')
  t.equal(slugs(await recall(db, { text, sessionId: 'race-2' })).length, 2, 'another session is told both')
})

engineTest(t, 'recall: after compaction the session is told again; other sessions keep what they were told', async (t, { db }) => {
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'Runs the Harrowgate pilot.'))
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle?', sessionId: 'long' })), ['people/wren-fenwhistle'])
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle?', sessionId: 'other' })), ['people/wren-fenwhistle'])
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle again', sessionId: 'long' })), [])
  const started = await startSession(db, { sessionId: 'long', fresh: true })
  t.equal(started.forgotten, 1)
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle again', sessionId: 'long' })), ['people/wren-fenwhistle'], 'told afresh')
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle again', sessionId: 'other' })), [], 'the other session still knows')
  t.equal((await startSession(db, { sessionId: 'long' })).forgotten, 0, 'a plain start forgets nothing')
  t.same(slugs(await recall(db, { text: 'Wren Fenwhistle again', sessionId: 'long' })), [])
})

engineTest(t, 'recall: a turn over 100,000 characters is read by its head and tail, through the operation too', async (t, { db }) => {
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'Runs the Harrowgate pilot.'))
  await page(db, 'people/odile-brackenridge', person('Odile Brackenridge', 'Counsel at Mirefield.'))
  await page(db, 'people/ansel-moorcroft', person('Ansel Moorcroft', 'Lost in the middle.'))
  const filler = 'lorem ipsum dolor sit amet '.repeat(2000)
  const text = `Ask Wren Fenwhistle. ${filler} Ansel Moorcroft ${filler} ${filler} Then Odile Brackenridge.`
  t.ok(text.length > 100_000)
  const result = await recall(db, { text })
  t.same(slugs(result).sort(), ['people/odile-brackenridge', 'people/wren-fenwhistle'], 'the head and the tail, not the middle')
  const tool = findTool('recall')!
  const args = tool.input.parse({ text, session_id: 'long-op' })
  const viaOperation = (await tool.run(operationCtx(db), args)) as { inject: Array<{ slug: string }> }
  t.equal(viaOperation.inject.length, 2, 'the operation accepts it')
})

engineTest(t, 'recall and start_session: an unknown source is refused with the code put uses', async (t, { db }) => {
  await t.rejects(recall(db, { text: 'Wren', sourceId: 'nope' }), { code: 'source_not_found', message: /No source "nope"/ })
  await t.rejects(startSession(db, { sourceId: 'nope' }), { code: 'source_not_found' })
  const tool = findTool('recall')!
  await t.rejects(tool.run(operationCtx(db), tool.input.parse({ text: 'hi', source: 'nope' })), { code: 'source_not_found' })
})

engineTest(t, 'start_session: counts of the active source only', async (t, { db }) => {
  await addSource(db, 'work')
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'Default source.'))
  await page(db, 'notes/a', '---\ntype: note\n---\n\nA note.\n', 'work')
  await page(db, 'notes/b', '---\ntype: note\n---\n\nB note.\n', 'work')
  t.match(await startSession(db, { sourceId: 'work' }), { source_id: 'work', pages: 2, by_type: [{ type: 'note', pages: 2 }], forgotten: 0 })
  t.match(await startSession(db, {}), { source_id: 'default', pages: 1, by_type: [{ type: 'person', pages: 1 }] })
  await addSource(db, 'empty')
  t.match(await startSession(db, { sourceId: 'empty' }), { source_id: 'empty', pages: 0, by_type: [] })
})

engineTest(t, 'recall: the working directory picks the source it lies in, unless a source is named', async (t, { db }) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-srcdir-'))
  await addSource(db, 'work', join(root, 'work'))
  await addSource(db, 'nested', join(root, 'work', 'inner'))
  t.equal(await sourceOfDirectory(db, join(root, 'work')), 'work')
  t.equal(await sourceOfDirectory(db, join(root, 'work', 'src', 'deep')), 'work')
  t.equal(await sourceOfDirectory(db, join(root, 'work', 'inner', 'x')), 'nested', 'the deepest source wins')
  t.equal(await sourceOfDirectory(db, join(root, 'workshop')), null, 'a sibling with the same prefix is not inside')
  t.equal(await sourceOfDirectory(db, 'relative/path'), null)
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'In default.'))
  await page(db, 'people/wren-fenwhistle', person('Wren Fenwhistle', 'In work.'), 'work')
  const tool = findTool('recall')!
  const inWork = (await tool.run(operationCtx(db), tool.input.parse({ text: 'Wren Fenwhistle', cwd: join(root, 'work', 'src') }))) as { inject: Array<{ source_id: string }> }
  t.match(inWork.inject, [{ source_id: 'work' }])
  const named = (await tool.run(operationCtx(db), tool.input.parse({ text: 'Wren Fenwhistle', cwd: join(root, 'work'), source: 'default' }))) as { inject: Array<{ source_id: string }> }
  t.match(named.inject, [{ source_id: 'default' }], '--source wins over the directory')
  const outside = (await tool.run(operationCtx(db), tool.input.parse({ text: 'Wren Fenwhistle', cwd: tmpdir() }))) as { inject: Array<{ source_id: string }> }
  t.match(outside.inject, [{ source_id: 'default' }])
})
