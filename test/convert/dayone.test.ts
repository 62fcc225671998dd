// test-runner: shares a process
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertDayOne } from '../../src/convert/dayone.js'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { findPage, listPages } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

/** A journal as Day One's "Export → JSON" writes it: keys in order, text in markdown with its escapes. */
const journal = {
  entries: [
    {
      creationDate: '2024-01-15T08:30:00Z',
      location: { administrativeArea: 'Berlin', country: 'Germany', localityName: 'Berlin', placeName: 'Harbour Café' },
      modifiedDate: '2024-01-15T09:00:00Z',
      starred: true,
      tags: ['travel', 'sea'],
      text: '# Tides at dawn\n\nThe water came in fast\\. ![](dayone-moment://8C1E2F0A7B)\n\nListen: ![](dayone-moment:/audio/F00D)',
      timeZone: 'Europe/Berlin',
      uuid: 'A1B2C3',
    },
    { creationDate: '2024-01-15T20:00:00Z', text: 'Evening walk, cold wind\\!\nMore later.', uuid: 'D4E5F6' },
    { creationDate: '2024-01-16T07:00:00Z', text: '', uuid: 'G7' },
    { creationDate: 'not a date', text: 'lost?', uuid: 'H8' },
  ],
  metadata: { version: '1.0' },
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

t.test('a Day One journal: a page per entry with its text, media named, and when and where it was written', async (t) => {
  t.equal(converterFor('Journal.json', undefined, bytes(journal)), 'dayone')
  t.equal(converterFor('Journal.json'), null, 'by name alone it is JSON')
  t.equal(converterFor('data/feed.json', undefined, bytes({ entries: [{ title: 'x' }] })), null, 'other JSON with entries stays code')
  const r = await convertBounded({ bytes: bytes(journal), name: 'exports/Journal.json' })
  t.equal(r.format, 'dayone')
  t.same(r.counts, { journal_entries: 3 }, 'an entry without a real date is left out')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['dayone/journal/2024-01-15-tides-at-dawn', 'Tides at dawn'],
      ['dayone/journal/2024-01-15-evening-walk-cold-wind', 'Evening walk, cold wind!'],
      ['dayone/journal/2024-01-16-entry', '2024-01-16'],
    ],
  )
  t.same(r.drafts[0]!.frontmatter, {
    type: 'journal',
    created: '2024-01-15T08:30:00Z',
    updated: '2024-01-15T09:00:00Z',
    tags: ['travel', 'sea'],
    place: 'Harbour Café, Berlin, Germany',
    starred: true,
    time_zone: 'Europe/Berlin',
    dayone_id: 'A1B2C3',
  })
  t.equal(r.drafts[0]!.body, '# Tides at dawn\n\nThe water came in fast\\. (photo)\n\nListen: (audio)\n')
  t.equal(r.drafts[1]!.body, '# Evening walk, cold wind!\n\nEvening walk, cold wind\\!\nMore later.\n')
  const limits = { maxBytes: 1e6, maxDrafts: 2 }
  t.throws(() => convertDayOne({ bytes: bytes({ entries: [] }), name: 'Empty.json' }, limits), { code: 'convert_unsupported' })
  t.throws(() => convertDayOne({ bytes: bytes({ entries: 'many' }), name: 'Odd.json' }, limits), { code: 'convert_unsupported' })
  t.throws(() => convertDayOne({ bytes: bytes(journal), name: 'Big.json' }, limits), { code: 'convert_too_many_pages' })
})

engineTest(t, 'a Day One export folder: each entry a page, found by its first bytes', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-dayone-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'Journal.json'), JSON.stringify(journal))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.formats.dayone?.pages, 3)
  const page = await findPage(db, 'default', 'dayone/journal/2024-01-15-tides-at-dawn')
  t.same([page?.title, page?.type, page?.tags], ['Tides at dawn', 'journal', ['sea', 'travel']])
  t.same(
    (await listPages(db, {})).map((p) => p.slug).filter((s) => !s.startsWith('dayone/')),
    [],
    'the JSON itself is not also imported as code',
  )
})
