/**
 * `brain export` on a thin client of a real `brain serve --http` (server engine): the served
 * brain's pages, read through the export_files operation a stretch at a time, written as the
 * same files a local export of that brain writes; and no local brain appears.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import t from 'tap'
import { exportPages } from '../../src/export/index.js'
import { runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, openDb, startServe } from './helpers.js'

/** Every file under a folder, by its path relative to it, with its content. */
function tree(root: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else files[relative(root, path)] = readFileSync(path, 'utf8')
    }
  }
  walk(root)
  return files
}

t.test('a thin client exports the served brain as a local export would', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const token = await makeToken(created.url, 'thin-export', ['read', 'write'])
  const put = async (slug: string, content: string) => {
    const response = await fetch(`${server.base}/api/put_page`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ slug, content, no_embed: true }),
    })
    t.equal(response.status, 200, `seeded ${slug}`)
  }
  await put('notes/alpha', '---\ntags: [one]\n---\n# Alpha\n\nFirst, linking [[notes/beta]].\n')
  await put('notes/beta', '# Beta\n\nSecond.\n')
  await put('projects/plan', '# Plan\n\nThird.\n')

  const home = mkdtempSync(join(tmpdir(), 'brain-thin-export-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }
  t.equal((await runBrain(['init', '--remote', server.base, '--token', token, '--json'], env)).code, 0)
  const out = mkdtempSync(join(tmpdir(), 'brain-thin-export-out-'))
  const exported = await runBrain(['export', out, '--json'], env)
  t.equal(exported.code, 0, exported.stderr)
  t.match(exported.json(), { pages: 3, written: 3, unchanged: 0, sources: ['default'] })

  const db = await openDb(created.url)
  t.teardown(() => db.close())
  const local = mkdtempSync(join(tmpdir(), 'brain-local-export-'))
  await exportPages(db, local)
  const remoteFiles = tree(out)
  t.same(Object.keys(remoteFiles).sort(), ['notes/alpha.md', 'notes/beta.md', 'projects/plan.md'])
  t.same(remoteFiles, tree(local), 'the same files, byte for byte, as a local export of the served brain')

  const again = await runBrain(['export', out, '--prefix', 'notes/', '--json'], env)
  t.match(again.json(), { pages: 2, written: 0, unchanged: 2 }, 'filters reach the served brain; unchanged files are left alone')
  t.notOk(existsSync(join(home, 'db')), 'no local brain was made')
})
