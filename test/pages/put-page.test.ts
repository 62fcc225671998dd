// test-runner: shares a process
import t from 'tap'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findPage, putPage, type PutPageContext } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'brain-wt-'))

engineTest(t, 'put_page writes through to <repo>/<slug>.md with provenance stamped', async (t, { db }) => {
  const repo = tmp()
  const ctx: PutPageContext = { db, logger: memoryLogger(), repoPath: repo, remote: false }
  const result = await putPage(ctx, { slug: 'ideas/graph', content: '# Graph\n\nLinks between notes.' })
  t.equal(result.status, 'created')
  t.same(result.write_through, { written: true, path: join(repo, 'ideas/graph.md') })
  const file = readFileSync(join(repo, 'ideas/graph.md'), 'utf8')
  t.match(file, /ingested_via: put_page/)
  t.match(file, /ingested_at: '?\d{4}-\d\d-\d\dT/)
  t.match(file, /Links between notes\./)
  const page = await findPage(db, 'default', 'ideas/graph')
  t.equal(page!.ingestedVia, 'put_page')
  t.ok(page!.ingestedAt instanceof Date)
  const again = await putPage(ctx, { slug: 'ideas/graph', content: file })
  t.equal(again.status, 'skipped', 'the written file re-imports as unchanged')
})

engineTest(t, 'other sources write under .sources/<id>/', async (t, { db }) => {
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
  const repo = tmp()
  const result = await putPage({ db, logger: memoryLogger(), repoPath: repo, remote: false }, { slug: 'a/b', content: 'text', sourceId: 'work' })
  t.same(result.write_through, { written: true, path: join(repo, '.sources/work/a/b.md') })
})

engineTest(t, 'no disk write when repo_path is unset or missing, in a dry run, or for a sandboxed remote caller', async (t, { db }) => {
  const logger = memoryLogger()
  const unset = await putPage({ db, logger, repoPath: null, remote: false }, { slug: 'x/unset', content: 'a' })
  t.same(unset.write_through, { written: false, path: null, reason: 'repo_path_unset' })
  const missing = await putPage({ db, logger, repoPath: join(tmp(), 'nope'), remote: false }, { slug: 'x/missing', content: 'a' })
  t.equal(missing.write_through.written, false)
  t.equal(missing.write_through.written === false && missing.write_through.reason, 'repo_path_missing')
  const repo = tmp()
  const dry = await putPage({ db, logger, repoPath: repo, remote: false, dryRun: true }, { slug: 'x/dry', content: 'a' })
  t.equal(dry.write_through.written === false && dry.write_through.reason, 'dry_run')
  t.equal(await findPage(db, 'default', 'x/dry'), null, 'a dry run writes nothing to the database either')
  const remote = await putPage({ db, logger, repoPath: repo, remote: true }, { slug: 'x/remote', content: 'a' })
  t.equal(remote.write_through.written === false && remote.write_through.reason, 'sandboxed')
  t.equal(remote.ingested_via, 'mcp:put_page')
  t.equal((await findPage(db, 'default', 'x/remote'))!.ingestedVia, 'mcp:put_page', 'database write happened')
  t.notOk(existsSync(join(repo, 'x/remote.md')))
})

engineTest(t, 'a remote caller with an allowlist writes only allowed slugs', async (t, { db }) => {
  const repo = tmp()
  const ctx: PutPageContext = { db, logger: memoryLogger(), repoPath: repo, remote: true, allowedSlugPrefixes: ['agents/'] }
  const ok = await putPage(ctx, { slug: 'agents/notes', content: 'fine' })
  t.equal(ok.write_through.written, true)
  await t.rejects(putPage(ctx, { slug: 'people/ada', content: 'nope' }), { code: 'slug_not_allowed' })
  t.equal(await findPage(db, 'default', 'people/ada'), null)
})

engineTest(t, 'a failing disk write is logged loudly and the database write is kept', async (t, { db }) => {
  const repo = tmp()
  // A directory where the page file should go makes the final rename fail.
  mkdirSync(join(repo, 'x/blocked.md'), { recursive: true })
  const logger = memoryLogger()
  const result = await putPage({ db, logger, repoPath: repo, remote: false }, { slug: 'x/blocked', content: '# Kept\n\nin the database' })
  t.equal(result.status, 'created')
  t.equal(result.write_through.written, false)
  t.equal(result.write_through.written === false && result.write_through.reason, 'write_failed')
  t.ok(
    logger.lines.some((l) => l.level === 'error' && /FAILED/.test(l.message)),
    'logged at error level',
  )
  t.ok(await findPage(db, 'default', 'x/blocked'), 'database row kept')
  chmodSync(repo, 0o755)
})
