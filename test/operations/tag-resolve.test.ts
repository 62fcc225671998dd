// test-runner: shares a process
import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import { dispatchTool } from '../../src/mcp/index.js'
import type { CallContext } from '../../src/operations/call-context.js'
import { putPage } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

engineTest(t, 'add_tag and remove_tag find a page in any source when its slug is unique there, as the command line does', async (t, { db }) => {
  const logger = memoryLogger()
  const config = loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-tag-')) } })
  const ctx: CallContext = { brain: async () => ({ db, config }), logger, dryRun: false, remote: true, scopes: ['read', 'write'], remoteSlugPrefixes: [] }
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work'), ('home', 'home') ON CONFLICT DO NOTHING`)
  await putPage({ db, logger, repoPath: null, remote: false }, { slug: 'notes/only-work', content: '# Only work\n\ntext', sourceId: 'work' })
  await putPage({ db, logger, repoPath: null, remote: false }, { slug: 'notes/twice', content: '# Twice\n\nwork', sourceId: 'work' })
  await putPage({ db, logger, repoPath: null, remote: false }, { slug: 'notes/twice', content: '# Twice\n\nhome', sourceId: 'home' })

  const added = await dispatchTool(ctx, 'add_tag', { slug: 'notes/only-work', tag: 'x' })
  t.equal(added.errorCode, null, 'a slug unique in a non-default source is found')
  t.same(added.result.structuredContent, { slug: 'notes/only-work', tag: 'x', changed: true })
  const tags = await db.query<{ tag: string }>(`SELECT tag FROM tags JOIN pages ON pages.id = tags.page_id WHERE pages.slug = 'notes/only-work' AND pages.source_id = 'work'`)
  t.same(
    tags.rows.map((r) => r.tag),
    ['x'],
  )
  t.equal((await dispatchTool(ctx, 'add_tag', { slug: 'notes/only-work', tag: 'x' })).result.structuredContent.changed, false, 'idempotent')

  t.equal((await dispatchTool(ctx, 'add_tag', { slug: 'notes/twice', tag: 'y' })).errorCode, 'ambiguous_slug', 'a slug in two sources needs its source')
  const named = await dispatchTool(ctx, 'add_tag', { slug: 'notes/twice', tag: 'y', source: 'home' })
  t.equal(named.errorCode, null)
  t.equal(named.result.structuredContent.changed, true)
  t.equal((await dispatchTool(ctx, 'add_tag', { slug: 'notes/only-work', tag: 'x', source: 'home' })).errorCode, 'page_not_found', 'an explicit source is kept to')
  t.equal((await dispatchTool(ctx, 'remove_tag', { slug: 'notes/missing', tag: 'x' })).errorCode, 'page_not_found')

  const removed = await dispatchTool(ctx, 'remove_tag', { slug: 'notes/only-work', tag: 'x' })
  t.same(removed.result.structuredContent, { slug: 'notes/only-work', tag: 'x', changed: true })
})
