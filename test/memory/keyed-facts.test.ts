// test-runner: shares a process
import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import type { Database } from '../../src/db/types.js'
import { findVersion, listVersions } from '../../src/history/index.js'
import { recall, remember } from '../../src/memory/index.js'
import { findPage, importPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'
import { bagOfWordsEmbedder, context } from '../search/helpers.js'

const writeCtx = (db: Database) => ({ db, logger: silentLogger, repoPath: null, remote: false })

async function seed(db: Database): Promise<void> {
  await importPage(db, {
    slug: 'companies/kestrelworks',
    kind: 'markdown',
    content: '---\ntitle: Kestrelworks\ntype: company\nsummary: Sells seats of its planning tool.\n---\n\nKestrelworks sells seats of its planning tool.\n',
    path: 'companies/kestrelworks.md',
  })
}

engineTest(t, 'remember --key: a later fact of the same key supersedes the earlier, which history and the timeline keep', async (t, { db }) => {
  await seed(db)
  const about = ['companies/kestrelworks']
  const first = await remember(writeCtx(db), { text: 'Kestrelworks charges 12 euros a seat.', about, key: 'price', now: new Date('2025-01-10T09:00:00Z') })
  t.match(first.written, [{ entry: '- **2025-01-10** | **price:** Kestrelworks charges 12 euros a seat.', superseded: null }])
  const other = await remember(writeCtx(db), { text: 'Kestrelworks is owned by Ada Brightwater.', about, key: 'owner', now: new Date('2025-02-01T09:00:00Z') })
  t.match(other.written, [{ superseded: null }], 'another key supersedes nothing')
  const second = await remember(writeCtx(db), { text: 'Kestrelworks charges 15 euros a seat.', about, key: 'Price', now: new Date('2025-03-01T09:00:00Z') })
  t.match(second.written, [{ status: 'updated', superseded: '- **2025-01-10** | **price:** Kestrelworks charges 12 euros a seat. (until 2025-03-01)' }])

  const stored = await findPage(db, 'default', 'companies/kestrelworks')
  t.equal(
    stored?.timeline.trim(),
    [
      '- **2025-01-10** | **price:** Kestrelworks charges 12 euros a seat. (until 2025-03-01)',
      '- **2025-02-01** | **owner:** Kestrelworks is owned by Ada Brightwater.',
      '- **2025-03-01** | **Price:** Kestrelworks charges 15 euros a seat.',
    ].join('\n'),
    'the earlier fact stays, closed at the date of the later one',
  )
  const versions = await listVersions(db, stored!.id)
  const before = await findVersion(db, stored!.id, versions[0]!.number)
  t.match(before?.content.timeline, /\*\*price:\*\* Kestrelworks charges 12 euros a seat\.$/m, 'history keeps the fact as it stood before it was superseded')

  const again = await remember(writeCtx(db), { text: 'Kestrelworks charges 15 euros a seat.', about, key: 'price', now: new Date('2025-04-01T09:00:00Z') })
  t.match(again.written, [{ status: 'skipped', superseded: null }], 'the same value again changes nothing')

  const recalled = await recall(db, { text: 'What does Kestrelworks charge?' })
  const excerpt = recalled.inject.find((i) => i.slug === 'companies/kestrelworks')?.excerpt ?? ''
  t.match(excerpt, /15 euros/, 'recall shows the current value')
  t.notMatch(excerpt, /12 euros/, 'and not the one it replaced')

  const embedder = bagOfWordsEmbedder('test-bag')
  const deps = { search: context(db, embedder) }
  const now = await buildContextPack(deps, 'what price per seat does Kestrelworks charge?', { budget: 2000 })
  const texts = now.items.map((i) => i.text).join('\n')
  t.match(texts, /15 euros a seat/, 'the pack holds the current value')
  t.notMatch(texts, /12 euros/, 'and not the superseded one')
  const then = await buildContextPack(deps, 'what price per seat did Kestrelworks charge before?', { budget: 2000 })
  t.match(then.items.map((i) => i.text).join('\n'), /12 euros a seat\. \(until 2025-03-01\)/, 'asked about before, the pack shows the earlier value with the date it held until')

  await t.rejects(remember(writeCtx(db), { text: 'x', about, key: '**bold**' }), { code: 'remember_invalid_key' })
  const plain = await remember(writeCtx(db), { text: 'Kestrelworks charges 20 euros a seat.', about, now: new Date('2025-05-01T09:00:00Z') })
  t.match(plain.written, [{ entry: '- **2025-05-01** | Kestrelworks charges 20 euros a seat.', superseded: null }], 'without a key nothing is superseded')
})
