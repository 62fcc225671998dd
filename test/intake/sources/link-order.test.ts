// test-runner: shares a process
import t from 'tap'
import { writeTree } from '../../helpers/tree.js'
import { join } from 'node:path'
import type { Database } from '../../../src/db/types.js'
import { importFiles, importFolder } from '../../../src/intake/import/index.js'
import { mostLinkedFirst } from '../../../src/intake/import/link-order.js'
import { createFileFilter } from '../../../src/intake/sources/file-filter.js'
import { walkFiles, type WalkedFile } from '../../../src/intake/sources/walk.js'
import { ENGINES, openTestDatabase } from '../../helpers/engines.js'

const tree = (files: Record<string, string>): string => writeTree('brain-link-order-', files)

/** 120 notes; note n links to the notes after it (not written yet in path order) in every form. */
function vault(): Record<string, string> {
  const files: Record<string, string> = {}
  const name = (n: number) => `Note ${String(n).padStart(3, '0')}`
  const folder = (n: number) => (n % 2 === 0 ? 'a' : 'b')
  for (let n = 0; n < 120; n++) {
    const hub = 100 + (n % 20)
    const lines = [`# ${name(n)}`, '', `See [[${name(hub)}]], ![[${name(hub)}#Part]] and [that](../${folder((n * 7) % 120)}/${encodeURIComponent(name((n * 7) % 120))}.md).`]
    if (n % 3 === 0) lines.push(`Also [[${folder(n + 1)}/${name((n + 1) % 120)}|the next]] and [[Nowhere ${n % 4}]].`)
    files[`${folder(n)}/${name(n)}.md`] = lines.join('\n') + '\n'
  }
  return files
}

async function walk(root: string): Promise<WalkedFile[]> {
  return walkFiles(root, createFileFilter({ strategy: 'auto' }), () => undefined)
}

async function linkRows(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ row: string }>(
    `SELECT concat_ws(' | ', f.slug, coalesce(p.slug, '(unresolved)'), l.link_type, l.target_text, l.anchor, l.line::text) AS row
       FROM links l JOIN pages f ON f.id = l.from_page_id LEFT JOIN pages p ON p.id = l.to_page_id ORDER BY 1`,
  )
  return rows.map((r) => r.row)
}

t.test('the most linked notes come first; anything else keeps path order', async (t) => {
  const root = tree(vault())
  const files = await walk(root)
  const { db, cleanup } = await openTestDatabase('pglite')
  t.teardown(cleanup)
  const ordered = await mostLinkedFirst(db, 'default', files)
  t.not(ordered, files)
  t.same([...ordered].map((f) => f.relativePath).sort(), files.map((f) => f.relativePath).sort(), 'the same files')
  const hubs = ordered.slice(0, 20).map((f) => f.relativePath)
  t.same([...hubs].sort(), Array.from({ length: 20 }, (_, i) => `${(100 + i) % 2 === 0 ? 'a' : 'b'}/Note ${100 + i}.md`).sort(), 'the twenty notes every other note links to')
  const rest = ordered.slice(20).map((f) => f.relativePath)
  t.ok(rest.indexOf('a/Note 002.md') < rest.indexOf('b/Note 003.md'), 'equals keep path order')
  const few = files.slice(0, 50)
  t.equal(await mostLinkedFirst(db, 'default', few), few, 'a small import keeps its order')
  const withCode = [...files, { relativePath: 'src/x.ts', absolutePath: join(root, 'x.ts'), kind: 'code' as const, size: 1 }]
  t.equal(await mostLinkedFirst(db, 'default', withCode), withCode, 'an import holding code keeps path order')
  await importFiles(db, files.slice(0, 1), { sourceId: 'default', embedder: null })
  t.equal(await mostLinkedFirst(db, 'default', files), files, 'a source that holds pages keeps path order')
  t.not(await mostLinkedFirst(db, 'other', files), files, 'another, empty source is ordered')
})

for (const engine of ENGINES) {
  t.test(`a first import ordered by links leaves the links of a path-order import [${engine}]`, async (t) => {
    const root = tree(vault())
    const ordered = await openTestDatabase(engine)
    t.teardown(ordered.cleanup)
    const plain = await openTestDatabase(engine)
    t.teardown(plain.cleanup)
    const viaFolder = await importFolder(ordered.db, root, { strategy: 'auto', sourceId: 'default', embedder: null, batchFiles: 10 })
    const inPathOrder = await importFiles(plain.db, await walk(root), { sourceId: 'default', embedder: null, batchFiles: 10 })
    t.equal(viaFolder.created, 120)
    t.equal(inPathOrder.created, 120)
    const links = await linkRows(ordered.db)
    t.equal(links.length, 120 * 3 + 40 * 2)
    t.same(links, await linkRows(plain.db), 'every link, its target and its place alike')
    t.match(links.join('\n'), /a\/note-000 \| a\/note-100 \| embeds \| Note 100/, 'an embed of a hub')
    t.equal(links.filter((l) => l.includes('(unresolved)')).length, 40, 'links to nothing stay unresolved')
  })
}
