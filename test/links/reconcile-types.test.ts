// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { reconcileLinks } from '../../src/links/index.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { importNote, importRepo } from '../code/fixture.js'

async function note(db: Database, slug: string, content: string): Promise<void> {
  await importPage(db, { slug, kind: 'markdown', content, path: `${slug}.md` })
}

engineTest(t, 'reconcile-links counts per link type beside the counts per family', async (t, { db }) => {
  await importNote(db)
  await importRepo(db)
  await note(db, 'journal/day', '---\nrelated: "[[people/ada]]"\n---\nMet Ada Lovelace. See [[Plans]], [[Elsewhere]] and ![[diagram.png]].')
  await note(db, 'plans', 'The plans.')
  await note(db, 'people/ada', '---\ntype: person\n---\n# Ada Lovelace\n')
  // As if the day's explicit links were stored before links were recorded.
  await db.query(`DELETE FROM links WHERE target_text IS NOT NULL`)

  const expected = [
    { linkType: 'documented_by', added: 3, reresolved: 0, unresolved: 0 },
    { linkType: 'documents', added: 3, reresolved: 0, unresolved: 0 },
    { linkType: 'embeds', added: 1, reresolved: 0, unresolved: 1 },
    { linkType: 'links_to', added: 2, reresolved: 0, unresolved: 1 },
    { linkType: 'mentions', added: 1, reresolved: 0, unresolved: 0 },
    { linkType: 'related', added: 1, reresolved: 0, unresolved: 0 },
  ]
  const dry = await reconcileLinks(db, null, { dryRun: true })
  t.same(
    dry.linkTypes,
    expected.map((c) => ({ ...c, unresolved: 0 })),
    'a dry run counts what it would add, by type (and resolves only links already stored)',
  )
  const first = await reconcileLinks(db, null, {})
  t.same(first.linkTypes, expected)
  t.equal(
    first.linkTypes.reduce((n, c) => n + c.added, 0),
    first.linksAdded,
    'the types add up to the links added',
  )
  t.match(first.kinds, { citations: { added: 6 }, mentions: { added: 1 }, explicit: { stored: 4 } }, 'the families stay')
  const again = await reconcileLinks(db, null, {})
  t.same(
    again.linkTypes,
    [
      { linkType: 'embeds', added: 0, reresolved: 0, unresolved: 1 },
      { linkType: 'links_to', added: 0, reresolved: 0, unresolved: 1 },
    ],
    'a second run adds nothing; what stays unresolved is still said',
  )
})
