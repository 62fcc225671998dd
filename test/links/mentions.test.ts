// test-runner: shares a process
import t from 'tap'
import { writeConfigValue } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { getBacklinks, getLinks, listEntities, mentionPhrases, reconcileLinks } from '../../src/links/index.js'
import { importPage, putPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

async function note(db: Database, slug: string, content: string): Promise<void> {
  await importPage(db, { slug, kind: 'markdown', content, path: `${slug}.md` })
}

const mentioned = async (db: Database, slug: string) => (await getLinks(db, slug, { types: ['mentions'] })).map((l) => [l.toSlug, l.line, l.linkSource])

t.test('mention phrases: prose only (no front matter, code or links), up to six words, first place kept', async (t) => {
  const phrases = mentionPhrases('---\ntitle: Front Matter Name\n---\nMet Ada Lovelace, then `Code Name` and [[Link Name]] and [Md Name](x.md).\n```\nFenced Name\n```\nAda again.\n')
  t.ok(phrases.has('ada lovelace'))
  t.same(phrases.get('ada'), { field: 'compiled_truth', line: 4, context: 'Met Ada Lovelace, then `Code Name` and [[Link Name]] and [Md Name](x.md).' })
  for (const absent of ['front matter name', 'code name', 'link name', 'md name', 'fenced name', 'lovelace then']) t.notOk(phrases.has(absent), absent)
  t.notOk(phrases.has('and and'), 'masked code and links break phrases')
})

t.test('mention phrases for known names: only phrases that open with a name, each at the same place as without names', async (t) => {
  const content = '# Day\nMet Ada Lovelace and the Analytical Engine team.\nLater, ada again; the engine ran.\nAda Lovelace Byron the third came.\n'
  const names = new Map([
    ['ada lovelace', 1],
    ['analytical engine', 2],
    ['engine', 3],
  ])
  const all = mentionPhrases(content)
  const some = mentionPhrases(content, names)
  for (const name of names.keys()) t.same(some.get(name), all.get(name), name)
  t.ok(some.size < all.size / 3, `${some.size} phrases instead of ${all.size}`)
  t.notOk(some.has('met ada'), 'no phrase opens where no name does')
  t.notOk(some.has('ada lovelace byron'), 'no phrase longer than the longest name')
})

engineTest(t, 'mentions: word-bounded, case-insensitive, titles and aliases, one per entity; guards for short, stopped and shared names', async (t, { db }) => {
  await note(db, 'people/ada', '---\ntype: person\ntitle: Ada Lovelace\naliases: [Countess, AL, Analytical]\n---\nMathematician.')
  await note(db, 'people/charles', '---\ntype: Person\ntitle: Charles Babbage\naliases: [Analytical]\n---\n')
  await note(db, 'companies/acme', '---\ntype: company\ntitle: Acme\n---\n')
  await note(db, 'projects/notes', '---\ntype: project\ntitle: Notes\n---\n')
  await note(db, 'ideas/not-an-entity', '---\ntype: note\ntitle: Engine\n---\n')
  await note(
    db,
    'journal/day',
    [
      '# Day',
      'Talked with the countess about the Analytical engine at ACME; AL was there.',
      'Acmeish is not Acme-adjacent? `Charles Babbage` in code, [[Charles Babbage]] linked.',
      'Some notes. ada lovelace again.',
    ].join('\n'),
  )
  t.same(
    await mentioned(db, 'journal/day'),
    [
      ['companies/acme', 2, 'mention'],
      ['people/ada', 2, 'mention'],
    ],
    'Acme (case-insensitive), Ada by alias at her first mention; not AL (short), Analytical (shared), Notes (stop list), Engine (not an entity), Babbage (code, link)',
  )
  t.same(await mentioned(db, 'people/ada'), [], 'an entity does not mention itself')
  await writeConfigValue(db, 'links.mention_stoplist', 'countess, acme')
  await note(db, 'journal/day', 'The countess met Acme and Ada Lovelace.')
  t.same(await mentioned(db, 'journal/day'), [['people/ada', 1, 'mention']], 'a configured stop list; re-import replaces mentions')
  const entities = await listEntities(db)
  t.match(entities[0], { slug: 'people/ada', type: 'person', mentions: 1, aliases: ['al', 'analytical', 'countess'] })
  t.same(
    (await listEntities(db, { type: 'company' })).map((e) => e.slug),
    ['companies/acme'],
  )
  await writeConfigValue(db, 'links.entity_types', 'company')
  t.same(
    (await listEntities(db)).map((e) => e.slug),
    ['companies/acme'],
    'configurable entity types',
  )
})

engineTest(t, 'mentions are derived: not for remote writes, not with auto_link false; reconcile adds them idempotently with counts per kind', async (t, { db }) => {
  await note(db, 'journal/early', 'Ada Lovelace wrote notes. See [[Later Page]].')
  await note(db, 'people/ada', '---\ntype: person\n---\n# Ada Lovelace\n')
  t.same(await mentioned(db, 'journal/early'), [], 'the entity came later')
  const ctx = { db, logger: silentLogger, repoPath: null }
  await putPage({ ...ctx, remote: true }, { slug: 'notes/remote', content: 'Ada Lovelace, remotely.' })
  t.same(await mentioned(db, 'notes/remote'), [])
  await writeConfigValue(db, 'auto_link', 'false')
  await note(db, 'notes/off', 'Ada Lovelace, auto_link off.')
  t.same(await mentioned(db, 'notes/off'), [])
  await writeConfigValue(db, 'auto_link', 'true')
  const dry = await reconcileLinks(db, null, { dryRun: true })
  t.match(dry.kinds, { mentions: { found: 3, added: 3 } })
  t.same(await mentioned(db, 'journal/early'), [], 'dry run writes nothing')
  const first = await reconcileLinks(db, null, {})
  t.match(first, { linksAdded: 3, kinds: { citations: { added: 0 }, mentions: { found: 3, added: 3 }, explicit: { pagesBackfilled: 0, reresolved: 0, unresolved: 1 } } })
  t.same(
    (await getBacklinks(db, 'people/ada', { types: ['mentions'] })).map((l) => l.fromSlug),
    ['journal/early', 'notes/off', 'notes/remote'],
  )
  const again = await reconcileLinks(db, null, {})
  t.match(again, { linksAdded: 0, kinds: { mentions: { found: 3, added: 0 }, explicit: { reresolved: 0 } } })
})

engineTest(t, 'reconcile backfills explicit links of pages stored before they were recorded, and re-resolves', async (t, { db }) => {
  await note(db, 'a', 'Links to [[b]] and [[c]].')
  await note(db, 'b', 'here')
  await db.query(`DELETE FROM links WHERE target_text IS NOT NULL`)
  const result = await reconcileLinks(db, null, {})
  t.match(result.kinds.explicit, { pagesBackfilled: 1, stored: 2, reresolved: 0, unresolved: 1 })
  t.same(
    (await getLinks(db, 'a')).map((l) => [l.targetText, l.toSlug]),
    [
      ['b', 'b'],
      ['c', null],
    ],
  )
  t.match((await reconcileLinks(db, null, {})).kinds.explicit, { pagesBackfilled: 0, stored: 0, reresolved: 0 })
})
